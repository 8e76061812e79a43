"""Calls for a referee: the one open call per table and reason, who may place and handle them, the rate limit, only
during play, and the audit trail of each change."""
import datetime

import pytest
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from audit.models import AuditEntry
from calls import selectors
from calls.models import Call
from calls.services import CALLS_PER_PLAYER, pass_call, place_call, resolve_call, take_call
from results.models import Announcement
from scheduling.models import Game
from tests.factories import make_entries, make_game, make_official, make_tournament, play
from web.organize.activity.sentences import described

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _counts():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def world():
    tournament = make_tournament()
    entries = make_entries(tournament, 8)
    game = make_game(tournament, [entries[:4], entries[4:]])
    tables = list(game.tables.order_by("number"))
    return tournament, entries, game, tables


def test_a_seated_player_calls_and_a_second_tap_returns_the_same_open_call(world):
    tournament, entries, _game, tables = world
    call = place_call(tables[0].pk, "rules", "  Is the  robber allowed? ", player=entries[0].player)
    again = place_call(tables[0].pk, "rules", "", player=entries[1].player)
    assert again.pk == call.pk and call.note == "Is the robber allowed?"
    assert Call.objects.filter(table=tables[0]).count() == 1
    other_reason = place_call(tables[0].pk, "pieces", player=entries[2].player)
    assert other_reason.pk != call.pk
    entry = AuditEntry.objects.get(action="call.placed", object_id=call.pk)
    assert entry.player_id == entries[0].player_id and entry.user is None and entry.tournament_id == tournament.pk
    assert "called a referee to table 1" in described([entry])[0].what


def test_the_database_refuses_a_second_open_call_for_the_same_table_and_reason(world):
    _tournament, entries, _game, tables = world
    call = place_call(tables[0].pk, "cards", player=entries[0].player)
    with pytest.raises(IntegrityError), transaction.atomic():
        Call.objects.create(tournament=call.tournament, table=call.table, reason="cards", placed_by=entries[1])
    resolve_call(call.pk, user=make_official(call.tournament))
    assert place_call(tables[0].pk, "cards", player=entries[1].player).pk != call.pk


def test_a_player_cannot_call_for_a_table_they_do_not_sit_at(world):
    tournament, entries, _game, tables = world
    with pytest.raises(PermissionDenied):
        place_call(tables[1].pk, "rules", player=entries[0].player)
    elsewhere = make_tournament(name="Elsewhere", slug="elsewhere")
    stranger = make_entries(elsewhere, 1)[0]
    with pytest.raises(PermissionDenied):
        place_call(tables[0].pk, "rules", player=stranger.player)
    assert not Call.objects.exists() and not AuditEntry.objects.filter(action="call.placed").exists()


def test_calls_only_while_the_game_is_played(world):
    tournament, entries, game, tables = world
    play(tables[0], [10, 8, 6, 4], make_official(tournament))
    with pytest.raises(ValidationError, match="not being played"):
        place_call(tables[0].pk, "rules", player=entries[0].player)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.PLANNED)
    with pytest.raises(ValidationError, match="not being played"):
        place_call(tables[1].pk, "rules", player=entries[4].player)
    assert not Call.objects.exists()


def test_a_player_is_limited_in_calls_per_half_hour(world):
    _tournament, entries, _game, tables = world
    referee = make_official(world[0])
    for _n in range(CALLS_PER_PLAYER.limit):
        resolve_call(place_call(tables[0].pk, "other", player=entries[0].player).pk, user=referee)
    with pytest.raises(ValidationError, match="try again in"):
        place_call(tables[0].pk, "other", player=entries[0].player)
    assert place_call(tables[0].pk, "other", player=entries[1].player).placed_by == entries[1]


def test_only_the_tournaments_officials_take_and_resolve(world):
    tournament, entries, _game, tables = world
    call = place_call(tables[0].pk, "rules", player=entries[0].player)
    outsider = make_official(make_tournament(name="Other", slug="other"))
    for act in (lambda: take_call(call.pk, user=outsider), lambda: resolve_call(call.pk, user=outsider),
                lambda: pass_call(call.pk, "organizer", user=outsider)):
        with pytest.raises(PermissionDenied):
            act()
    call.refresh_from_db()
    assert call.taken_by is None and call.is_open and not call.passed_to


def test_taking_shows_who_and_another_referee_cannot_take_it_over(world):
    tournament, entries, _game, tables = world
    ana, ben = make_official(tournament, username="ana"), make_official(tournament, username="ben")
    call = take_call(place_call(tables[0].pk, "rules", player=entries[0].player).pk, user=ana)
    assert call.taken_by == ana and take_call(call.pk, user=ana).taken_at == call.taken_at
    with pytest.raises(ValidationError, match="ana is already going"):
        take_call(call.pk, user=ben)
    assert AuditEntry.objects.filter(action="call.taken").count() == 1
    assert [c.taken_by for c in selectors.queue(tournament)] == [ana]


def test_a_call_passed_to_the_organizer_is_theirs_alone(world):
    tournament, entries, _game, tables = world
    referee, organizer = make_official(tournament), make_official(tournament, "organizer")
    call = take_call(place_call(tables[0].pk, "step_away", player=entries[0].player).pk, user=referee)
    call = pass_call(call.pk, "organizer", user=referee)
    assert call.passed_to == "organizer" and call.taken_by is None and call.first_taken_at is not None
    with pytest.raises(PermissionDenied):
        take_call(call.pk, user=referee)
    resolved = resolve_call(call.pk, "The player may leave for ten minutes.", user=organizer)
    assert resolved.resolved_by == organizer and not resolved.is_open
    assert AuditEntry.objects.filter(action="call.passed", after__to="organizer").exists()


def test_resolving_posts_the_ruling_as_an_announcement_or_starts_timed_turns(world):
    tournament, entries, _game, tables = world
    referee = make_official(tournament)
    call = place_call(tables[0].pk, "rules", player=entries[0].player)
    resolve_call(call.pk, "The robber moves first.", user=referee, announce=True)
    assert Announcement.objects.get(tournament=tournament).text == "Game 1, table 1: The robber moves first."
    turns = place_call(tables[1].pk, "timed_turns", player=entries[4].player)
    resolve_call(turns.pk, user=referee, timed_turns=True)
    tables[1].refresh_from_db()
    assert tables[1].turn_seconds and AuditEntry.objects.filter(action="turns.on").count() == 1
    resolved = AuditEntry.objects.get(action="call.resolved", object_id=call.pk)
    assert described([resolved])[0].what.endswith("ruling: The robber moves first.")


def test_a_ruling_refused_for_the_announcement_keeps_the_call_open(world):
    tournament, entries, _game, tables = world
    call = place_call(tables[0].pk, "rules", player=entries[0].player)
    with pytest.raises(ValidationError, match="Write the ruling"):
        resolve_call(call.pk, "", user=make_official(tournament), announce=True)
    call.refresh_from_db()
    assert call.is_open and not AuditEntry.objects.filter(action="call.resolved").exists()


def test_waits_per_game_median_and_95th_percentile(world):
    _tournament, entries, _game, tables = world
    base = datetime.datetime(2026, 5, 1, 10, 0, tzinfo=datetime.UTC)
    for n, (reason, wait) in enumerate((("rules", 60), ("cards", 120), ("pieces", 600))):
        call = place_call(tables[0].pk, reason, player=entries[n].player)
        Call.objects.filter(pk=call.pk).update(placed_at=base, first_taken_at=base + datetime.timedelta(seconds=wait))
    place_call(tables[1].pk, "other", player=entries[4].player)  # still waiting: not an answered wait
    rows = selectors.waits_by_game(list(Call.objects.select_related("table__game")))
    assert rows == [selectors.GameWaits(1, 4, 3, 120, 600)]
    assert selectors.percentile(list(range(1, 101)), 0.95) == 95
