"""Server errors the adversarial test of issue 33 (item 11) found, each a plain answer now: an unknown record sheet
posted from a player's phone, implausible birth dates, and template comments shown as text."""
import re
from datetime import date, timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.messages import get_messages
from django.core.exceptions import ValidationError
from django.template import engines
from django.utils import timezone

from championships import links
from championships.eligibility import OLDEST, check_birth_date
from championships.list_file import check_records, read_upload
from championships.models import Player, Registration
from tests.factories import make_entries, make_official, make_tournament, make_user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("sheet_id", [99999999, 2**63])
@pytest.mark.parametrize("action", ["confirm", "object"])
def test_an_unknown_sheet_posted_from_the_phone_is_not_found(client, sheet_id, action):
    """`RecordSheet.DoesNotExist` went up as a 500; the answer keeps the private page's headers."""
    (entry,) = make_entries(make_tournament(), 1)
    response = client.post(f"/me/{links.issue(entry.player)}/sheets/{sheet_id}/", {"action": action, "version": 1})
    assert response.status_code == 404
    assert "no-store" in response["Cache-Control"] and response["X-Robots-Tag"] == "noindex, nofollow"


def _years_ago(years: int, days: int = 0) -> date:
    today = timezone.localdate()
    return today.replace(year=today.year - years, day=min(today.day, 28)) - timedelta(days=days)


IMPLAUSIBLE = [date(1800, 1, 1), _years_ago(OLDEST + 1), timezone.localdate() + timedelta(days=1)]
"""Registration took 1800-01-01; the organizer's forms and the imports took 1901 (their bound was 1900)."""


@pytest.mark.parametrize("born", IMPLAUSIBLE, ids=str)
def test_registration_refuses_an_implausible_birth_date_at_its_field(client, born):
    make_tournament(slug="born-cup", self_registration=True)
    response = client.post("/t/born-cup/register/", {"consent": "on", "name": "Ann Lee", "email": "ann@example.com",
                                                      "date_of_birth": born.isoformat()})
    assert response.status_code == 422 and not Registration.objects.exists()
    assert response.context["form"].errors["date_of_birth"] == _message(born)
    assert client.post("/t/born-cup/register/", {"consent": "on", "name": "Ann Lee", "email": "ann@example.com",
                                                 "date_of_birth": _years_ago(OLDEST - 1).isoformat()}
                       ).status_code == 302


def _message(born: date) -> list[str]:
    with pytest.raises(ValidationError) as refused:
        check_birth_date(born)
    said = refused.value.messages
    assert said[0].startswith(born.isoformat()) and ("future" in said[0] or f"{OLDEST} years ago" in said[0])
    return said


@pytest.mark.parametrize("born", IMPLAUSIBLE, ids=str)
def test_the_organizers_forms_and_the_admin_refuse_an_implausible_birth_date(client, born):
    tournament = make_tournament(slug="born-desk")
    organizer = make_official(tournament, "organizer")
    client.force_login(organizer)
    added = client.post(f"/organize/{tournament.slug}/players/add/", {"name": "Ann Lee", "kind": "friend",
                                                                       "date_of_birth": born.isoformat()})
    assert added.status_code == 422 and added.context["form"].errors["date_of_birth"] == _message(born)
    found = client.post(f"/organize/{tournament.slug}/entries/add/", {"name": "Ann Lee", "born": born.isoformat()})
    assert [str(m) for m in get_messages(found.wsgi_request)] == [f"Nobody was entered: {_message(born)[0]}"]
    client.force_login(make_user("born-admin", is_staff=True, is_superuser=True))
    admin = client.post("/admin/championships/player/add/", {"name": "Ann Lee", "date_of_birth": born.isoformat(),
                                                             "listed": "on"})
    assert admin.status_code == 200 and admin.context["adminform"].form.errors["date_of_birth"] == _message(born)
    assert not Player.objects.filter(name="Ann Lee").exists()


@pytest.mark.parametrize("born", IMPLAUSIBLE, ids=str)
def test_an_import_names_the_line_of_an_implausible_birth_date(born):
    _records, problems = read_upload("list.csv", f"name,date_of_birth\nAnn Lee,1990-02-03\nBo Li,{born}\n".encode())
    lines = check_records(_records, problems)
    assert [(p.line, p.column, p.message) for line in lines for p in line.problems] == [
        (3, "date_of_birth", _message(born)[0])]


def _templates_of_the_project() -> list[Path]:
    """Every file in the project's template folders (settings' DIRS and each app's), not the libraries'."""
    base = Path(settings.BASE_DIR)
    folders = [Path(d) for d in engines["django"].template_dirs if Path(d).is_relative_to(base)
               and ".venv" not in Path(d).relative_to(base).parts]
    return sorted(path for folder in folders for path in folder.rglob("*") if path.is_file())


def test_no_template_comment_runs_over_a_line(client):
    """`{# … #}` ends on its own line; one that does not is shown as text (the check-in QR page showed its note to
    the projector). Longer notes are `{% comment %}` blocks."""
    templates = _templates_of_the_project()
    assert any(path.name == "checkin_qr.html" for path in templates)
    unclosed = [f"{path.relative_to(settings.BASE_DIR)}:{n}" for path in templates
                for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if "{#" in re.sub(r"\{#.*?#\}", "", line)]
    assert not unclosed
    tournament = make_tournament(slug="qr-cup")
    client.force_login(make_official(tournament, "organizer"))
    page = client.get(f"/organize/{tournament.slug}/check-in/qr/").content.decode()
    assert "Self check-in is closed" in page and "{#" not in page and "#}" not in page
