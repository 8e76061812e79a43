"""Forms exports through the import page: the preview says how it read the columns and the dates, the organizer's
date format choice reads them again, and the Google Forms and Microsoft Forms samples import."""
from datetime import date
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import translation
from django.utils.translation import gettext as _

from championships.countries import country_for_code
from championships.list_dates import DAY_FIRST, FORMAT_LABELS, MONTH_FIRST
from championships.models import Entry, Player, Relationship
from tests.factories import make_championship, make_official, make_tournament

pytestmark = pytest.mark.django_db

FORMS = Path(__file__).resolve().parents[1] / "data" / "forms"
URL = "/organize/cup/players/import/"
AGREED = {"consent": "1"}  # the players on the list agreed to the championship's privacy notice


@pytest.fixture
def organizer_client(client):
    tournament = make_tournament(slug="cup")  # a championship in the United Arab Emirates: day first by default
    client.force_login(make_official(tournament, "organizer"))
    client.tournament = tournament
    return client


def upload(client, name: str, data: bytes):
    return client.post(URL, {"file": SimpleUploadedFile(name, data)})


def preview_rows(response) -> dict[int, date | None]:
    return {item.line: item.row.date_of_birth if item.row else None for item in response.context["preview"].lines}


def test_the_google_forms_sample_imports_month_first_as_guessed(organizer_client):
    response = upload(organizer_client, "responses.csv", (FORMS / "google-forms-registrations.csv").read_bytes())
    body = response.content.decode()
    assert response.status_code == 200 and response.context["preview"].ok
    assert response.context["guess"].format == MONTH_FIRST and response.context["guess"].certain
    assert 'value="month_first" selected' in body
    assert "Read as a Google Forms export." in body and "<bdi>Timestamp</bdi>" in body
    assert "Email from “<bdi>Email address</bdi>”" in body and "<bdi>Phone number</bdi>" in body
    assert "because line 2 has <bdi>5/31/1990</bdi>, which reads only this way" in body
    assert '<time class="read-date" datetime="1990-05-31">31 May 1990</time>' in body
    token = response.context["confirm_form"].initial["token"]
    response = organizer_client.post(URL, {**AGREED, "token": token, "date_format": MONTH_FIRST})
    assert response.status_code == 302
    layla = Player.objects.get(email="layla.haddad@example.org")
    assert (layla.name, layla.date_of_birth, layla.country.code) == ("ليلى حداد", date(1990, 5, 31), "AE")
    assert Player.objects.get(email="omar.haddad@example.org").date_of_birth == date(1988, 11, 4)
    assert Entry.objects.filter(tournament=organizer_client.tournament).count() == 6
    assert Relationship.objects.count() == 2


def test_the_microsoft_forms_sample_imports_day_first_as_guessed(organizer_client):
    response = upload(organizer_client, "Registrations(1-5).xlsx",
                      (FORMS / "microsoft-forms-registrations.xlsx").read_bytes())
    body = response.content.decode()
    assert response.status_code == 200 and response.context["guess"].format == DAY_FIRST
    assert "Read as a Microsoft Forms export" in body
    for bookkeeping in ("ID", "Start time", "Completion time", "Last modified time"):
        assert f"<li><bdi>{bookkeeping}</bdi></li>" in body
    response = organizer_client.post(URL, {**AGREED, "token": response.context["confirm_form"].initial["token"]})
    assert response.status_code == 302
    assert {p.name: p.date_of_birth for p in Player.objects.all()} == {
        "Nadia Ferreira": date(1990, 5, 31), "Hadi Khoury": date(1988, 11, 4), "Farah Saad": date(1996, 8, 17),
        "Yael Levi": date(1983, 3, 9), "كريم منصور": date(2000, 2, 29)}
    assert Player.objects.get(name="Hadi Khoury").email == "hadi.khoury@club.example"


def test_an_ambiguous_file_is_a_guess_and_the_choice_reads_the_dates_again(organizer_client):
    text = "Timestamp,Full name,Date of birth\n2026/10/02 9:14:03 PM GMT+4,Ann Lee,5/6/1990\n"
    response = upload(organizer_client, "form.csv", text.encode())
    guess = response.context["guess"]
    assert (guess.format, guess.certain) == (DAY_FIRST, False)
    assert "A guess: Day first (31/12/1990), as most of the world writes dates." in response.content.decode()
    assert preview_rows(response) == {2: date(1990, 6, 5)}
    token = response.context["token"]
    response = organizer_client.post(URL, {**AGREED, "token": token, "date_format": MONTH_FIRST})  # changed: again
    assert response.status_code == 200 and not Player.objects.exists()
    body = response.content.decode()
    assert preview_rows(response) == {2: date(1990, 5, 6)} and 'value="month_first" selected' in body
    assert "6 May 1990" in body
    response = organizer_client.post(URL, {**AGREED, "token": response.context["token"], "date_format": MONTH_FIRST})
    assert response.status_code == 302 and Player.objects.get().date_of_birth == date(1990, 5, 6)


def test_a_month_first_country_defaults_to_month_first(client):
    championship = make_championship(country=country_for_code("US"))
    tournament = make_tournament(slug="cup", championship=championship)
    client.force_login(make_official(tournament, "organizer"))
    response = upload(client, "form.csv", b"Full name,Date of birth\nAnn Lee,5/6/1990\n")
    assert response.context["guess"].format == MONTH_FIRST and not response.context["guess"].certain
    assert "as dates are written in United States of America" in response.content.decode()


def test_a_date_not_in_the_chosen_format_names_its_line_and_column_and_imports_nothing(organizer_client):
    text = "Full name,Date of birth\nAnn Lee,31/05/1990\nBo Chen,5/31/1990\n"
    response = upload(organizer_client, "form.csv", text.encode())
    assert response.status_code == 422 and response.context["confirm_form"] is None
    assert response.context["guess"].kind == "mixed"
    problems = [(p.line, p.column, p.message) for p in response.context["preview"].problems]
    assert problems == [(3, "date_of_birth", "'5/31/1990' is not a date written day first, like 31/05/1990")]
    assert "line 3 (<bdi>5/31/1990</bdi>) reads only the other way" in response.content.decode()
    response = organizer_client.post(URL, {**AGREED, "token": response.context["token"], "date_format": MONTH_FIRST,
                                           "recheck": "1"})
    assert [(p.line, p.column) for p in response.context["preview"].problems] == [(2, "date_of_birth")]
    assert not Player.objects.exists()


def test_a_date_format_not_offered_is_refused_beside_the_choice(organizer_client):
    response = upload(organizer_client, "form.csv", b"Full name,Date of birth\nAnn Lee,31/05/1990\n")
    response = organizer_client.post(URL, {**AGREED, "token": response.context["token"],
                                           "date_format": "year_last" * 40})
    assert response.status_code == 422 and not Player.objects.exists()
    assert response.context["date_errors"] and preview_rows(response) == {2: date(1990, 5, 31)}
    assert 'value="day_first" selected' in response.content.decode()


def test_the_preview_says_the_guess_in_arabic(organizer_client):
    response = organizer_client.post("/ar" + URL, {"file": SimpleUploadedFile(
        "responses.csv", (FORMS / "google-forms-registrations.csv").read_bytes())})
    with translation.override("ar"):
        label = str(FORMAT_LABELS[MONTH_FIRST])
        columns = _("Columns read:")
    body = response.content.decode()
    assert response.status_code == 200 and label in body and columns in body


def test_an_arabic_form_with_first_and_last_names_imports_them_joined(organizer_client):
    sample = FORMS / "google-forms-arabic-first-and-last-names.csv"
    response = upload(organizer_client, sample.name, sample.read_bytes())
    body = response.content.decode()
    assert response.status_code == 200 and response.context["preview"].ok
    assert "Read as a Google Forms export." in body and "<bdi>الطابع الزمني</bdi>" in body
    assert "Name from “<bdi>الاسم الأول + اسم العائلة</bdi>”" in body
    token = response.context["confirm_form"].initial["token"]
    assert organizer_client.post(URL, {**AGREED, "token": token}).status_code == 302  # ISO dates: no format to choose
    assert set(Player.objects.values_list("name", flat=True)) == {"Sara", "ليلى حداد", "عمر حداد"}
    assert Relationship.objects.count() == 1  # Layla and Omar, named by each other
