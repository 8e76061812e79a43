"""The calls' forms (issue 36) fed hostile values: a player's call from their phone for any table, and the referee's
resolve and pass forms for any call. As in test_forms.py: never a server error, nothing written when refused."""
import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from calls.models import Call
from calls.services import place_call
from championships import links
from tests.fuzz.test_forms import body, fuzz, post, values

pytestmark = pytest.mark.django_db

BIG = [0, 2**31, 2**63, 10**30]
REASONS = Call.Reason.values


@fuzz(25)
@given(data=st.data())
def test_a_call_from_a_phone_for_any_table(fuzz_world, data):
    """The player of the open table calls for it, for the signed-off one, or for one that does not exist."""
    w = fuzz_world
    entry = w.tournament.entries.select_related("player").get(pk=w.open_entries[0])
    table_id = data.draw(st.sampled_from([w.open_table.pk, w.locked_table.pk, *BIG]))
    path = reverse("players-me-call", args=[links.issue(entry.player), table_id])
    post(Client(), path, data.draw(body({
        "reason": values(*REASONS, "nap"), "note": values("The blue road is missing.", "x" * 201)},
        [{"reason": reason} for reason in REASONS])))


@pytest.fixture
def open_call(fuzz_world):
    entry = fuzz_world.tournament.entries.select_related("player").get(pk=fuzz_world.open_entries[0])
    client = Client()
    client.force_login(fuzz_world.referee)
    return client, place_call(fuzz_world.open_table.pk, "timed_turns", "Slow play", player=entry.player)


@fuzz(25)
@given(data=st.data())
def test_the_referees_resolve_and_pass_forms_for_any_call(fuzz_world, open_call, data):
    client, call = open_call
    call_id = data.draw(st.sampled_from([call.pk, *BIG]))
    path = reverse("referee-call", args=[fuzz_world.tournament.slug, call_id])
    post(client, path, data.draw(body({
        "resolve": values("1"), "pass": values("1"), "ruling": values("Trades are public.", "", "x" * 451),
        "then": values("", "announce", "timed_turns"), "to": values("head_referee", "organizer")},
        [{"resolve": "1", "ruling": "Trades are public.", "then": then} for then in ("", "announce", "timed_turns")]
        + [{"pass": "1", "to": to} for to in ("head_referee", "organizer")])))
