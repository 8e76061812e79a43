"""Typed audit payloads: every action has its shape, `record_change` checks it (refusing in strict mode, logging
otherwise), and entries stored in other shapes, older or newer, still render in the activity log."""
import json
import logging
import typing

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typing_extensions import is_typeddict

from audit import payloads, shapes
from audit.actions import Action
from audit.models import AuditEntry
from audit.services import PayloadMismatch, record_change
from tests.factories import make_entries, make_official, make_tournament
from web.organize.activity.sentences import described

CHECKED_IN = {"player": "Ann", "status": "checked_in", "minutes_late": 0}


def test_every_action_has_the_shape_of_its_before_and_after():
    missing = [payloads.missing(action) for action in Action if action not in payloads.PAYLOADS]
    assert not missing, "\n".join(missing)


def test_every_shape_refuses_keys_it_does_not_name_and_types_it_does_not_say():
    defined = [value for value in vars(shapes).values() if is_typeddict(value) and value.__module__ == shapes.__name__]
    assert len(defined) > 40
    for shape in defined:
        assert shape.__pydantic_config__ == {"extra": "forbid", "strict": True}, shape


@pytest.mark.parametrize(("before", "after", "where"), [
    ({"status": "registered"}, {**CHECKED_IN, "minutes_late": "5"}, "minutes_late"),  # a string, not a number
    ({"status": "registered"}, {**CHECKED_IN, "minutes_late": True}, "minutes_late"),
    ({"status": "registered"}, {"player": "Ann", "status": "checked_in"}, "minutes_late"),  # a key left out
    ({"status": "registered"}, {**CHECKED_IN, "seat": 3}, "seat"),  # a key the shape does not name
    (None, CHECKED_IN, "before"),
])
def test_a_payload_that_does_not_fit_is_refused_in_strict_mode(db, before, after, where):
    tournament = make_tournament()
    entry = make_entries(tournament, 1)[0]
    organizer = make_official(tournament, "organizer")
    stored = AuditEntry.objects.count()
    with pytest.raises(PayloadMismatch, match=where) as refused:
        record_change(organizer, tournament.pk, Action.ENTRY_CHECKED_IN, entry, before=before, after=after)
    assert "Ann" not in str(refused.value), "the message names keys, never the values (it may be logged)"
    assert AuditEntry.objects.count() == stored


def test_a_payload_that_fits_is_recorded_as_given(db):
    tournament = make_tournament()
    entry = make_entries(tournament, 1)[0]
    record_change(None, tournament.pk, Action.ENTRY_CHECKED_IN, entry, before={"status": "registered"},
                  after={**CHECKED_IN, "minutes_late": 7, "self": True})
    assert AuditEntry.objects.latest("pk").after == {**CHECKED_IN, "minutes_late": 7, "self": True}


def test_on_a_live_site_a_mismatch_is_logged_and_the_change_recorded_all_the_same(db, settings, caplog):
    settings.AUDIT_STRICT_PAYLOADS = False
    tournament = make_tournament()
    entry = make_entries(tournament, 1)[0]
    with caplog.at_level(logging.ERROR, logger="audit.services"):
        record_change(None, tournament.pk, Action.ENTRY_CHECKED_IN, entry, after={"player": "Ann", "minutes": 5})
    stored = AuditEntry.objects.latest("pk")
    assert stored.action == "entry.checked_in" and stored.after == {"player": "Ann", "minutes": 5}
    [logged] = caplog.records
    assert logged.levelno == logging.ERROR and "entry.checked_in" in logged.getMessage()
    assert "Ann" not in logged.getMessage()


def test_an_action_added_without_a_shape_says_what_to_add(db, settings, monkeypatch, caplog):
    monkeypatch.delitem(payloads.PAYLOADS, Action.TOKEN_REVOKED)
    tournament = make_tournament()
    with pytest.raises(PayloadMismatch, match=r"add `Action.TOKEN_REVOKED: Payload\(before=..., after=...\)` to "
                                              r"PAYLOADS in audit/payloads.py"):
        record_change(None, None, Action.TOKEN_REVOKED, tournament, after={"name": "scoreboard"})
    settings.AUDIT_STRICT_PAYLOADS = False
    record_change(None, None, Action.TOKEN_REVOKED, tournament, after={"name": "scoreboard"})
    assert AuditEntry.objects.latest("pk").action == "token.revoked"
    assert "has no payload shape" in caplog.text


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                    max_leaves=6)


def drawn(wanted) -> st.SearchStrategy:
    """Any payload of the shape, as the database gives it back (a tuple an array, a dict's keys strings)."""
    if wanted is None:
        return st.none()
    if shapes.AdminRow in (wanted, *typing.get_args(wanted)):  # JsonValue has no strategy of its own
        return st.dictionaries(st.text(max_size=12), JSON, max_size=4)
    return st.from_type(wanted).map(lambda value: json.loads(json.dumps(value)))


@st.composite
def stored_otherwise(draw, wanted) -> object:
    """A payload of the shape as another version may have stored it: any of its keys left out, others added."""
    value = draw(drawn(wanted))
    if not isinstance(value, dict):
        return value
    kept = {key: item for key, item in value.items() if draw(st.booleans())}
    return kept | draw(st.dictionaries(st.sampled_from(["note", "seats", "old_key"]), JSON, max_size=2))


def entry_of(action: Action, before, after) -> AuditEntry:
    return AuditEntry(tournament_id=None, action=action.value, object_type="player", object_id=0, before=before,
                      after=after)


@pytest.mark.django_db
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_payload_of_the_shapes_fits_them_once_stored_and_renders(data):
    drawn_payloads = {action: (data.draw(drawn(shape.before)), data.draw(drawn(shape.after)))
                      for action, shape in payloads.PAYLOADS.items()}
    assert {action: payloads.problem(action, *sides) for action, sides in drawn_payloads.items()} == dict.fromkeys(
        payloads.PAYLOADS)
    rows = described([entry_of(action, *sides) for action, sides in drawn_payloads.items()])
    assert all(row.known and row.what for row in rows)


@pytest.mark.django_db
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_entries_stored_in_older_shapes_still_render(data):
    entries = [entry_of(action, data.draw(stored_otherwise(shape.before)), data.draw(stored_otherwise(shape.after)))
               for action, shape in payloads.PAYLOADS.items()]
    rows = described(entries)
    assert all(row.known and row.what for row in rows)


def test_the_activity_page_shows_entries_stored_with_keys_missing_or_unknown(client, db):
    tournament = make_tournament()
    organizer = make_official(tournament, "organizer")
    entry = make_entries(tournament, 1)[0]
    for action in payloads.PAYLOADS:
        for before, after in ((None, None), ({}, {}), ({"old_key": [1]}, {"old_key": {"a": None}})):
            AuditEntry.objects.create(tournament=tournament, user=organizer, action=action.value, object_type="entry",
                                      object_id=entry.pk, before=before, after=after)
    client.force_login(organizer)
    for kind in ("", "sheet", "penalty", "entry", "player", "admin"):
        response = client.get(reverse("activity-log", args=[tournament.slug]) + f"?kind={kind}")
        assert response.status_code == 200
    csv = client.get(reverse("activity-log-csv", args=[tournament.slug]))
    assert csv.status_code == 200 and csv.content.decode().count("entry.checked_in") == 3
