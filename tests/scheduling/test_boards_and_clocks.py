"""Boards dealt when a game is published (docs/rules.md §5), changed by the organizer; the map-study clock."""
import datetime
import re

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEntry
from championships.models import Tournament
from championships.services import assign_staff
from engines.boards.fairness import LIMITS, broken_limits
from engines.boards.generator import decode_board, generate_board
from engines.rulesets import ruleset_for
from results.publishing import publish_game
from scheduling.boards import change_board, set_board_limits
from scheduling.clocks import change_clock, clock_of, set_timed_turns
from scheduling.models import Game
from scheduling.services import generate_seating
from tests.factories import make_admin, make_entries, make_official, make_tournament

pytestmark = pytest.mark.django_db


def planned_games(players: int, games: int = 3, *, per_table: bool = False, ruleset: str = "cnc-2022"):
    tournament = make_tournament(games=games, ruleset=ruleset)
    stage = tournament.stages.get()
    stage.boards_per_table = per_table
    stage.save()
    make_entries(tournament, players)
    organizer = make_official(tournament, "organizer")
    referee = make_official(tournament, "referee")
    generate_seating(stage.pk, user=organizer, seed=1)
    return list(Game.objects.filter(tournament=tournament).order_by("number")), organizer, referee


def test_publishing_deals_one_board_per_game_the_same_at_every_table_and_a_new_one_each_game(client):
    games, organizer, _referee = planned_games(12)
    for game in games:
        publish_game(game.pk, user=organizer)
    games = [Game.objects.get(pk=g.pk) for g in games]
    codes = [g.board_code for g in games]
    assert all(codes) and len(set(codes)) == len(games)
    for game in games:
        assert decode_board(game.board_code).code == game.board_code  # a legal board, its code round-trips
        assert set(game.tables.values_list("board_code", flat=True)) == {""}  # the tables play the game's board
        data = client.get(reverse("api-seating", args=[game.tournament.slug, game.number])).json()
        assert data["board"] == game.board_code
        assert all("board" not in table for table in data["tables"])
    publish_game(games[0].pk, user=organizer)  # a double tap deals no new board
    assert Game.objects.get(pk=games[0].pk).board_code == codes[0]
    assert AuditEntry.objects.get(action="seating.published", object_id=games[0].pk).after["board"] == codes[0]


def test_a_per_table_stage_gives_each_of_its_four_tables_a_different_board(client):
    """Seed 003: the Lord of Catan semifinal plays four different boards. The seating API gave the game too a
    `board` no table plays (issue 20 item 11); it is null, as the interface says."""
    (game,), organizer, _referee = planned_games(16, games=1, per_table=True)
    publish_game(game.pk, user=organizer)
    tables = list(game.tables.order_by("number").values_list("number", "board_code"))
    codes = [code for _n, code in tables]
    assert len(tables) == 4 and all(codes) and len(set(codes)) == 4
    game.refresh_from_db()
    assert game.board_code not in codes
    data = client.get(reverse("api-seating", args=[game.tournament.slug, game.number])).json()
    assert [(t["number"], t["board"]) for t in data["tables"]] == tables
    assert "board" in data and data["board"] is None


def test_the_organizer_regenerates_or_types_a_board_and_it_is_audited():
    (game, _second, _third), organizer, referee = planned_games(8)
    publish_game(game.pk, user=organizer)
    first = Game.objects.get(pk=game.pk).board_code
    change_board(game.pk, user=organizer)
    second = Game.objects.get(pk=game.pk).board_code
    assert second != first
    typed = generate_board(99).code
    change_board(game.pk, code=" " + typed.lower() + " ", user=organizer)  # typed from a sheet
    assert Game.objects.get(pk=game.pk).board_code == typed
    entries = list(AuditEntry.objects.filter(action="board.changed").order_by("pk"))
    assert [(e.before["board"], e.after["board"], e.after["typed"]) for e in entries] == [
        (first, second, False), (second, typed, True)]
    with pytest.raises(PermissionDenied):
        change_board(game.pk, user=referee)
    with pytest.raises(ValidationError, match="not a board code"):
        change_board(game.pk, code="F6-123", user=organizer)
    assert Game.objects.get(pk=game.pk).board_code == typed


def test_a_planned_game_has_no_board_to_change():
    (_first, second, _third), organizer, _referee = planned_games(8)
    with pytest.raises(ValidationError):
        change_board(second.pk, user=organizer)
    assert Game.objects.get(pk=second.pk).board_code == ""


def test_study_lengths_come_from_the_ruleset():
    """004 §1.1.7: 5 minutes in preliminary games, 10 in semifinal and final games; 001, 000 and 003 have none."""
    cwc = ruleset_for("cwc-2025")
    assert cwc.map_study_seconds("preliminary") == 300
    assert cwc.map_study_seconds("semifinal") == cwc.map_study_seconds("final") == 600
    assert [ruleset_for(key).map_study_seconds("preliminary") for key in ("cnc-2022", "lord-of-catan")] == [None, None]


@pytest.mark.parametrize("ruleset", ["cnc-2022", "lord-of-catan"])
def test_rules_without_study_time_offer_no_clock_and_the_service_refuses_it(client, ruleset):
    """Only the world rules have study time after the map reveal (004 §1.1.7); 001 (and 000) and 003 have none, yet
    the desk offered the clock under every ruleset (issue 32 item 8d). Now the desk, the public pages and the
    service agree: no clock, and a start posted by hand is refused."""
    (game, _second, _third), organizer, referee = planned_games(8, ruleset=ruleset)
    publish_game(game.pk, user=organizer)
    client.force_login(referee)
    desk = client.get(reverse("referee-desk", args=[game.tournament.slug])).content.decode()
    assert "data-study-clock" not in desk and "Start the map-study clock" not in desk
    response = client.post(reverse("referee-clock", args=[game.tournament.slug, game.pk]), {"action": "start"})
    assert response.status_code == 302
    game = Game.objects.select_related("tournament", "stage").get(pk=game.pk)
    assert game.study_ends_at is None and clock_of(game) is None
    assert not AuditEntry.objects.filter(action__startswith="clock.").exists()
    with pytest.raises(ValidationError, match="no map-study time"):
        change_clock(game.pk, "start", user=referee)
    client.logout()
    overview = client.get(f"/t/{game.tournament.slug}/").content.decode()
    assert 'id="map-study-clock"' not in overview
    world, organizer, referee = planned_games(8, ruleset="cwc-2025")
    publish_game(world[0].pk, user=organizer)
    client.force_login(referee)
    desk = client.get(reverse("referee-desk", args=[world[0].tournament.slug])).content.decode()
    assert "Start the map-study clock" in desk


def test_the_clock_starts_pauses_resumes_ends_and_resets_from_the_server_time():
    (game, _second, _third), organizer, referee = planned_games(8, ruleset="cwc-2025")
    publish_game(game.pk, user=organizer)
    before = timezone.now()
    change_clock(game.pk, "start", user=referee)
    game = Game.objects.select_related("tournament", "stage").get(pk=game.pk)
    assert game.study_seconds == 300
    assert before + datetime.timedelta(seconds=299) < game.study_ends_at <= timezone.now() + datetime.timedelta(
        seconds=300)
    later = clock_of(game, game.study_ends_at - datetime.timedelta(seconds=61))
    assert (later.state, later.remaining, later.remaining_text) == ("running", 61, "1:01")
    assert clock_of(game, game.study_ends_at).state == "ended"
    change_clock(game.pk, "start", user=referee)  # a second start (another referee) changes nothing
    change_clock(game.pk, "pause", user=organizer)
    game = Game.objects.select_related("tournament", "stage").get(pk=game.pk)
    paused = clock_of(game, timezone.now() + datetime.timedelta(hours=1))
    assert paused.state == "paused" and 298 <= paused.remaining <= 300  # time stands still while paused
    change_clock(game.pk, "resume", user=referee)
    game = Game.objects.select_related("tournament", "stage").get(pk=game.pk)
    assert clock_of(game).state == "running"
    change_clock(game.pk, "end", user=referee)
    game = Game.objects.select_related("tournament", "stage").get(pk=game.pk)
    assert clock_of(game).state == "ended"
    with pytest.raises(ValidationError):
        change_clock(game.pk, "pause", user=referee)
    change_clock(game.pk, "reset", user=referee)
    game = Game.objects.select_related("tournament", "stage").get(pk=game.pk)
    assert clock_of(game).state == "idle"
    assert list(AuditEntry.objects.filter(action__startswith="clock.").order_by("pk").values_list(
        "action", flat=True)) == ["clock.start", "clock.pause", "clock.resume", "clock.end", "clock.reset"]
    outsider = make_official(make_tournament(), "referee")
    with pytest.raises(PermissionDenied):
        change_clock(game.pk, "start", user=outsider)


def test_every_screen_shows_the_same_running_clock_and_the_board(client):
    (game, _second, _third), organizer, referee = planned_games(8, ruleset="cwc-2025")
    publish_game(game.pk, user=organizer)
    slug = game.tournament.slug
    client.force_login(referee)
    response = client.post(reverse("referee-clock", args=[slug, game.pk]), {"action": "start"})
    assert response.status_code == 302
    game.refresh_from_db()
    ends_ms = str(int(game.study_ends_at.timestamp() * 1000))
    client.logout()
    for language in ("", "/ar"):
        for page in ("", f"games/{game.number}/", "screen/"):
            url = f"{language}/t/{slug}/{page}"
            html = client.get(url).content.decode()
            assert f'data-ends-at-ms="{ends_ms}"' in html, url
            assert re.search(r'<time datetime="[^"]+"><bdi>\d\d:\d\d:\d\d</bdi></time>', html), url  # without JS
        game_page = client.get(f"{language}/t/{slug}/games/{game.number}/").content.decode()
        assert game.board_code in game_page and 'role="img"' in game_page
    for language in ("en", "ar", "he", "fa"):  # every language draws the board, named and described
        prefix = "" if language == "en" else f"/{language}"
        html = client.get(f"{prefix}/t/{slug}/games/{game.number}/").content.decode()
        assert f'lang="{language}"' in html and html.count("<svg") == 1 and html.count('class="tile"') == 19
        assert re.search(rf"<title[^>]*>[^<]*{game.board_code}[^<]*</title>", html) and html.count("<desc") == 1
    client.force_login(referee)
    desk = client.get(reverse("referee-desk", args=[slug]) + f"?game={game.number}").content.decode()
    assert f'data-ends-at-ms="{ends_ms}"' in desk and 'value="pause"' in desk and game.board_code in desk


def test_a_referee_imposes_and_lifts_timed_turns_on_one_table_from_the_tablet(client):
    """001 §5: "The referee has the authority to introduce and enforce a time limit on player turns"."""
    (game, _second, _third), organizer, referee = planned_games(8)
    publish_game(game.pk, user=organizer)
    first, second = game.tables.order_by("number")
    client.force_login(referee)
    sheet_url = reverse("referee-sheet", args=[game.tournament.slug, first.pk])
    assert "data-turn-timer" not in client.get(sheet_url).content.decode()
    response = client.post(reverse("referee-timed-turns", args=[game.tournament.slug, first.pk]), {"turns": "on"})
    assert response.status_code == 302
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.turn_seconds, second.turn_seconds) == (180, None)  # 001 §5: at most 3 minutes; one table only
    page = client.get(sheet_url).content.decode()
    assert 'data-turn-timer data-seconds="180"' in page and 'value="off"' in page
    set_timed_turns(first.pk, True, user=referee)  # pressed twice: nothing more
    set_timed_turns(first.pk, False, user=referee)
    first.refresh_from_db()
    assert first.turn_seconds is None
    turns = AuditEntry.objects.filter(action__startswith="turns.").order_by("pk")
    assert list(turns.values_list("action", "after")) == [
        ("turns.on", {"turn_seconds": 180, "placement_seconds": None}),
        ("turns.off", {"turn_seconds": None, "placement_seconds": None})]
    with pytest.raises(PermissionDenied):
        set_timed_turns(first.pk, True, user=make_official(make_tournament(), "referee"))


def test_a_championships_fairness_limits_hold_on_every_board_dealt_and_refuse_a_typed_board(client):
    games, organizer, _referee = planned_games(16, games=3, ruleset="cwc-2025")
    championship = games[0].tournament.championship
    with pytest.raises(PermissionDenied):  # a tournament's organizer is not the championship's
        set_board_limits(championship.pk, list(LIMITS), user=organizer)
    assign_staff(organizer, "organizer", championship=championship, user=make_admin())
    set_board_limits(championship.pk, list(reversed(LIMITS)), user=organizer)
    championship.refresh_from_db()
    assert championship.board_limits == list(LIMITS)
    for game in games:
        publish_game(game.pk, user=organizer)
        game.refresh_from_db()
        assert broken_limits(decode_board(game.board_code), LIMITS) == []
    unfair = next(generate_board(seed).code for seed in range(100)
                  if broken_limits(generate_board(seed), LIMITS))
    with pytest.raises(ValidationError, match="fairness limits"):
        change_board(games[0].pk, code=unfair, user=organizer)
    assert AuditEntry.objects.filter(action="board.limits").count() == 1
    client.force_login(organizer)
    page = client.get(reverse("organize-championship", args=[championship.slug])).content.decode()
    assert page.count('type="checkbox"') == len(LIMITS) and page.count("checked") == len(LIMITS)
    change_clock(games[0].pk, "start", user=organizer)
    change_board(games[0].pk, user=organizer)
    activity = client.get(reverse("activity-log", args=[games[0].tournament.slug])).content.decode()
    assert "Map-study clock started: 5 minutes" in activity and "Board replaced by a new random board" in activity


def test_a_club_tournament_outside_any_championship_is_dealt_boards_with_no_fairness_limits():
    """A club tournament may stand outside any championship (constraint tournament_in_championship): publishing
    its game deals a board (it raised AttributeError reading the championship's limits) and no limit refuses one."""
    (game,), organizer, _referee = planned_games(12, games=1)
    Tournament.objects.filter(pk=game.tournament_id).update(kind="club", championship=None)
    publish_game(game.pk, user=organizer)
    game.refresh_from_db()
    assert decode_board(game.board_code).code == game.board_code
    unfair = next(generate_board(seed).code for seed in range(100) if broken_limits(generate_board(seed), LIMITS))
    change_board(game.pk, code=unfair, user=organizer)
    assert Game.objects.get(pk=game.pk).board_code == unfair
