"""Forms the page fuzzers do not reach, fed hostile values (issue 33 item 11 found a server error in each): a
player's answer from their phone for any record sheet, a season's form at any version, and the registration form
with any date of birth. Properties as in test_forms.py: never a server error, nothing written when refused; and a
registration accepted holds a plausible date of birth."""
from datetime import date

import pytest
from django.contrib import messages
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from championships import links
from championships.eligibility import check_birth_date
from championships.models import Registration, StaffRole
from championships.services import assign_staff
from ratings.seasons import create_season
from results.models import RecordSheet
from tests.db_snapshot import changed, snapshot
from tests.factories import make_admin, make_tournament, make_user
from tests.fuzz.test_forms import body, fuzz, nasty, post, values

pytestmark = pytest.mark.django_db

BIG = [0, 2**31, 2**63, 10**30]


@fuzz(25)
@given(data=st.data())
def test_a_phone_answer_for_any_sheet(fuzz_world, data):
    """The player of the open table answers for their sheet, another table's, or one that does not exist."""
    w = fuzz_world
    entry = w.tournament.entries.select_related("player").get(pk=w.open_entries[0])
    sheets = [w.open_table.sheet.pk, w.locked_table.sheet.pk, *BIG]
    sheet_id = data.draw(st.sampled_from(sheets))
    version = RecordSheet.objects.filter(pk=sheet_id).values_list("version", flat=True).first() or 1
    path = reverse("players-me-sheet", args=[links.issue(entry.player), sheet_id])
    sent = data.draw(body({
        "action": values("confirm", "object", "sign"), "version": values(version, version + 1, 0),
        "note": values("VP of seat 2 are wrong.", "x" * 600)},
        [{"action": action, "version": str(version)} for action in ("confirm", "object")]))
    with transaction.atomic():
        before = snapshot()
        response = Client().post(path, sent)
        after = snapshot()
        transaction.set_rollback(True)
    cache.clear()
    assert response.status_code < 500
    said = [m for m in messages.get_messages(response.wsgi_request) if m.level >= messages.ERROR]
    if response.status_code >= 400 or said:  # an objection recorded is said as a warning: not a refusal
        assert not changed(before, after), (path, sent, response.status_code, said, changed(before, after))


@pytest.fixture
def season(fuzz_world):
    organizer = make_user("fuzz-season-organizer")
    championship = fuzz_world.tournament.championship
    assign_staff(organizer, StaffRole.Role.ORGANIZER, championship=championship, user=make_admin())
    made = create_season(user=organizer, name="Fuzz tour", championship_ids=[championship.pk],
                         points={"qualifier": [10, 6, 3]}, tiebreaks=[])
    client = Client()
    client.force_login(organizer)
    return client, made


@fuzz(20)
@given(data=st.data())
def test_a_season_form_at_any_version(season, data):
    client, made = season
    made.refresh_from_db()
    championship = made.championships.get().pk
    post(client, reverse("organize-season-edit", args=[made.pk]), data.draw(body({
        "name": values("Fuzz tour 2", "", "x" * 201), "championships": values(championship, championship + 1000),
        "points_qualifier": values("10, 6, 3", "12", "x"), "points_finals": values("", "5, 1"),
        "tiebreak_0": values("", "wins", "total_vp"), "version": values(made.version, made.version - 1, "")},
        [{"name": "Fuzz tour 2", "championships": str(championship), "points_qualifier": "12, 8",
          "version": str(version)} for version in (made.version, made.version - 1)])))


@pytest.fixture
def open_registration(fuzz_world):
    return make_tournament(slug="fuzz-register", championship=fuzz_world.tournament.championship,
                           self_registration=True)


born = st.one_of(st.dates(min_value=date(1000, 1, 1), max_value=date(2999, 12, 31)).map(date.isoformat),
                 st.sampled_from(["1800-01-01", "1900-01-01", "0001-01-01", "9999-12-31", "1990-02-30", "90-01-01"]),
                 nasty)


@fuzz(25)
@given(data=st.data())
def test_registration_takes_only_a_plausible_date_of_birth(open_registration, data):
    path = reverse("players-register", args=[open_registration.slug])
    with transaction.atomic():
        before = snapshot()
        response = Client().post(path, {"name": "Fuzz Registrant", "email": "fuzz@example.com", "country": "AE",
                                        "date_of_birth": data.draw(born)})
        stored = list(Registration.objects.filter(tournament=open_registration).values_list("date_of_birth",
                                                                                            flat=True))
        after = snapshot()
        transaction.set_rollback(True)
    cache.clear()  # the registrations per address
    assert response.status_code < 500
    if response.status_code != 302:
        assert not changed(before, after) and 'class="errorlist' in response.content.decode()
    for day in stored:
        check_birth_date(day)
