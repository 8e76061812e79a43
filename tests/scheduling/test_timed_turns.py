"""Timed turns imposed on a table, with the limits of the tournament's rules (docs/rules.md §5, timed turns).

Seeds: 001 §5 "Timed turn length is limited to three minutes"; 000 §5 (the undated edition) "limited to one
minute"; 004 §1.1.8 "a time limit on player turns and initial placements … Recommended timed turn length is two
minutes, but this may be reduced"; 003, General rules 5: the slow player gets a minute to finish the turn, then
every turn at the table has 2 minutes for trading and building until the end of the game.
"""
import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from audit.models import AuditEntry
from championships.formats import plan_from_preset
from championships.setup import create_championship
from engines.rulesets import RULESETS, Ruleset, ruleset_for
from scheduling.clocks import set_timed_turns, turn_rules
from tests.factories import make_admin, make_entries, make_game, make_official, make_tournament
from web.organize.activity.sentences import described

pytestmark = pytest.mark.django_db


def table_of(tournament):
    game = make_game(tournament, [make_entries(tournament, 4)])
    return game.tables.get()


def preset_tournament(key):
    championship = create_championship(plan_from_preset(key), user=make_admin())
    return championship.tournaments.order_by("date", "pk").first()


def test_the_registry_holds_each_rulesets_timed_turns():
    """001 §5: at most 3 minutes; 004 §1.1.8: 2 minutes, reducible, placements too; 003: 1 minute, then 2."""
    cnc, cwc, loc = (ruleset_for(key) for key in ("cnc-2022", "cwc-2025", "lord-of-catan"))
    def turns(r):
        return r.turn_seconds_max, r.turn_seconds, r.turn_reducible, r.timed_placements, r.finish_turn_seconds

    assert (turns(cnc), turns(cwc), turns(loc)) == (
        (180, None, True, False, None), (120, 120, True, True, None), (120, 120, False, False, 60))
    assert all(r.turn_seconds_max <= 180 for r in RULESETS.values())
    with pytest.raises(ValueError, match="timed turn"):
        Ruleset("too-slow", "Too slow", ("wins",), turn_seconds=240)


def test_edition_000_limits_a_timed_turn_to_one_minute():
    """000 §5: "Timed turn length is limited to one minute" — a table of a `ksa-2022-edition-000` qualifier got
    120-second turns; now one minute is offered and more is refused."""
    tournament = preset_tournament("ksa-2022-edition-000")
    referee = make_official(tournament)
    table = table_of(tournament)
    assert turn_rules(tournament).longest == 60
    with pytest.raises(ValidationError) as refused:
        set_timed_turns(table.pk, True, user=referee, seconds=120)
    assert refused.value.message_dict["seconds"] == ["A timed turn lasts at most 1:00 in this tournament."]
    assert set_timed_turns(table.pk, True, user=referee).turn_seconds == 60


def test_a_uae_event_of_edition_000_gets_its_one_minute_turns():
    """000 §5: "Timed turn length is limited to one minute", and 000 §3 has a UAE format like 001's: a UAE event
    of edition 000 had only the one `uae-2022` preset, which follows 001 (three minutes); its own preset gives
    the one minute (issue 32 item 8e). The plain key still follows 001."""
    tournament = preset_tournament("uae-2022-edition-000")
    referee = make_official(tournament)
    assert (tournament.city, turn_rules(tournament).longest) == ("Dubai", 60)
    with pytest.raises(ValidationError, match="at most 1:00"):
        set_timed_turns(table_of(tournament).pk, True, user=referee, seconds=90)
    assert turn_rules(preset_tournament("uae-2022")).longest == 180


def test_edition_001_allows_up_to_three_minutes():
    """001 §5: "Timed turn length is limited to three minutes": the longest is offered, a shorter one allowed."""
    tournament = preset_tournament("ksa-2022")
    referee = make_official(tournament)
    table = table_of(tournament)
    assert set_timed_turns(table.pk, True, user=referee).turn_seconds == 180
    assert set_timed_turns(table.pk, True, user=referee, seconds=90).turn_seconds == 90
    with pytest.raises(ValidationError) as refused:
        set_timed_turns(table.pk, True, user=referee, seconds=181)
    assert "at most 3:00" in refused.value.message_dict["seconds"][0]
    with pytest.raises(ValidationError) as placements:
        set_timed_turns(table.pk, True, user=referee, seconds=90, placement_seconds=60)
    assert "initial placements" in placements.value.message_dict["placement_seconds"][0]


def test_a_world_judge_reduces_the_two_minute_turn_and_times_initial_placements(client):
    """004 §1.1.8: "a time limit on player turns and initial placements … two minutes, but this may be reduced"."""
    tournament = make_tournament(ruleset="cwc-2025")
    referee = make_official(tournament)
    table = table_of(tournament)
    client.force_login(referee)
    url = reverse("referee-timed-turns", args=[tournament.slug, table.pk])
    client.post(url, {"turns": "on", "seconds": "90", "placement_seconds": "60"})
    table.refresh_from_db()
    assert (table.turn_seconds, table.placement_seconds) == (90, 60)
    page = client.get(reverse("referee-sheet", args=[tournament.slug, table.pk])).content.decode()
    assert 'data-seconds="90"' in page and 'data-seconds="60"' in page and "initial placement" in page
    response = client.post(url, {"turns": "on", "seconds": "150"}, follow=True)
    assert "A timed turn lasts at most 2:00 in this tournament." in response.content.decode()
    table.refresh_from_db()
    assert table.turn_seconds == 90
    entry = AuditEntry.objects.get(action="turns.on")
    assert entry.after == {"turn_seconds": 90, "placement_seconds": 60}
    assert described([entry])[0].what == "Timed turns imposed: 1:30 a turn, 1:00 a placement"


def test_lord_of_catan_gives_the_slow_player_a_minute_then_times_every_turn_at_two_minutes(client):
    """003, General rules 5: the organizer gives the slow player one minute to finish the turn; from then on every
    player at the table has 2 minutes a turn for trading and building, until the end of the game."""
    tournament = make_tournament(ruleset="lord-of-catan")
    referee = make_official(tournament)
    table = table_of(tournament)
    with pytest.raises(ValidationError) as fixed:
        set_timed_turns(table.pk, True, user=referee, seconds=90)
    assert fixed.value.message_dict["seconds"] == ["Under these rules every timed turn lasts 2:00."]
    client.force_login(referee)
    client.post(reverse("referee-timed-turns", args=[tournament.slug, table.pk]), {"turns": "on"})
    table.refresh_from_db()
    assert (table.turn_seconds, table.placement_seconds) == (120, None)
    page = client.get(reverse("referee-sheet", args=[tournament.slug, table.pk])).content.decode()
    assert page.index('data-seconds="60"') < page.index('data-seconds="120"')  # the slow player's minute first
    assert "finish the turn" in page
    entry = AuditEntry.objects.get(action="turns.on")
    assert entry.after == {"turn_seconds": 120, "placement_seconds": None, "finish_seconds": 60}
    assert described([entry])[0].what == "Timed turns imposed: 1:00 to finish the slow turn, then 2:00 a turn"


def test_a_preset_that_follows_edition_001_keeps_the_rulesets_limit():
    """I-3: keys without a suffix follow 001, UAE included (000 and 001 share its §3, not its §5)."""
    assert turn_rules(preset_tournament("uae-2022")).longest == 180
    assert turn_rules(preset_tournament("lebanon-2022-edition-000")).longest == 60
    assert turn_rules(make_tournament(ruleset="lord-of-catan", championship=None)).longest == 120
