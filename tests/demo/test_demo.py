"""`seed_demo` builds a living demo of every format once; later runs leave it, and everything else, alone."""
import csv
import io
import random
import re
import unicodedata
from fractions import Fraction

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from attendance import self_checkin
from audit.models import AuditEntry
from championships import places, signup
from championships.models import Entry, Player, Registration, Relationship, StaffRole, Tournament
from championships.services import assign_staff, create_championship_from_preset, enter_player
from demo.seed import OPEN_ROSTER, _settle_ties
from engines.ranking.timing import game_minutes
from ranking.standings import compute_standings
from results.draws import record_draw
from results.models import RecordSheet, Score, TiebreakDraw
from results.penalties import record_penalty
from scheduling.models import Game, Seat, Table
from tests import db_snapshot
from tests.factories import (
    make_admin,
    make_entries,
    make_game,
    make_official,
    make_player,
    make_tournament,
    make_user,
    play,
)

pytestmark = pytest.mark.django_db

DEMO_SLUGS = ("demo-uae-championship", "demo-world-championship", "demo-lord-of-catan")
SEED_CHART = ((1, 8, 9, 16), (2, 7, 10, 15), (3, 6, 11, 14), (4, 5, 12, 13))
"""Seed 004 §1.1.5: the preliminary ranks seated at semifinal tables 1 to 4."""


def snapshot():
    return {
        "tournaments": sorted(Tournament.objects.filter(championship__slug__in=DEMO_SLUGS)
                              .values_list("championship__name", "name", "status", "date", "ruleset")),
        "entries": sorted(Entry.objects.values_list("tournament__name", "player__email", "status")),
        "players": Player.objects.count(),
        "relationships": sorted(Relationship.objects.values_list("player_a__email", "player_b__email", "kind")),
        "staff": sorted(StaffRole.objects.values_list("user__username", "role", "tournament__name",
                                                      "championship__name")),
        "seats": sorted(Seat.objects.values_list("game__tournament__name", "game__number", "table__number",
                                                 "position", "entry__player__email")),
        "scores": sorted(Score.objects.values_list("seat__game__tournament__name", "seat__game__number",
                                                   "seat__entry__player__email", "vp", "winner", "sheet__status")),
        "times": sorted(RecordSheet.objects.values_list("table__game__tournament__name", "table__game__number",
                                                        "table__number", "start_time", "end_time")),
        "draws": sorted((draw.tournament.name, draw.method, tuple(p.entry.player.email for p in draw.places.all()))
                        for draw in TiebreakDraw.objects.prefetch_related("places__entry__player")),
        "standings": {t.name: [(r["rank"], r["player"], r["tied"]) for r in compute_standings(t)]
                      for t in Tournament.objects.filter(championship__slug__in=DEMO_SLUGS)},
    }


def test_a_second_seed_demo_changes_nothing_not_even_what_staff_tried(capsys, settings,
                                                                      django_assert_max_num_queries):
    """`make run` seeds on every start: once the demo exists, a run is a no-op that keeps what staff recorded while
    trying it (a penalty, 001 §6; a drawing of lots, 004 §1.3.2), and costs a handful of queries."""
    call_command("seed_demo", "--force")
    referee = StaffRole.objects.get(role="referee", tournament__championship__slug="demo-world-championship").user
    for slug in DEMO_SLUGS:
        tournament = Tournament.objects.filter(championship__slug=slug).order_by("date").first()
        last, second_last = (row["entry"] for row in reversed(compute_standings(tournament)[-2:]))
        record_penalty(last, user=referee, kind="warning", reason="Trying the penalty screen")
        record_draw(tournament, [second_last, last], user=referee, method="lots", note="Trying the draws screen")
    first = snapshot()
    before = db_snapshot.snapshot()
    capsys.readouterr()
    settings.DEBUG = True  # as `make run` runs it

    with django_assert_max_num_queries(15):
        call_command("seed_demo")

    assert db_snapshot.changed(before, db_snapshot.snapshot()) == []
    assert snapshot() == first
    out = capsys.readouterr().out
    assert "already there: nothing changed" in out and "organizer / organizer-demo" in out
    assert "World Championship (finished): 32 players" in out and "Lord of Catan (finished): 48 players" in out


def real_tournament_holding(players: list[Player], staff) -> Tournament:
    """A non-demo qualifier with `players` entered, seated and signed off, `staff` one of its referees."""
    organizer = make_admin()
    tournament = make_tournament(games=1, name="Sharjah open", slug="sharjah-open")
    entries = [enter_player(player, tournament, user=organizer) for player in players]
    assign_staff(staff, StaffRole.Role.REFEREE, user=organizer, tournament=tournament)
    play(make_game(tournament, [entries]).tables.get(), [10, 7, 6, 5], staff)
    return tournament


def test_a_real_tournament_holding_demo_players_survives_the_next_seed_demo():
    """Issue 20 item 2: every start deleted the players whose email ends in @example.org, and crashed (nothing
    served) once one of them was entered in a real tournament. The demo's players and logins serve it too."""
    call_command("seed_demo", "--force")
    demo_players = list(Player.objects.filter(email__endswith="@example.org").order_by("pk")[:4])
    referee = get_user_model().objects.get(username="referee")
    real = real_tournament_holding(demo_players, referee)
    before = db_snapshot.snapshot()

    call_command("seed_demo", "--force")

    assert db_snapshot.changed(before, db_snapshot.snapshot()) == []
    assert sorted(real.entries.values_list("player_id", flat=True)) == [p.pk for p in demo_players]
    assert StaffRole.objects.filter(user=referee, tournament=real).exists()


def test_a_demo_removed_by_hand_comes_back_without_touching_players_a_real_tournament_holds():
    """A demo championship deleted by hand is created again; its players who stayed (one entered in a real
    tournament, renamed there since) are reused as they are, not reset to the roster."""
    call_command("seed_demo", "--force")
    club = Tournament.objects.get(championship__slug="demo-lord-of-catan")
    kept = club.entries.order_by("pk").first().player
    TiebreakDraw.objects.filter(tournament=club).delete()
    Game.objects.filter(tournament=club).delete()
    club.championship.delete()
    Player.objects.filter(pk=kept.pk).update(name="Renamed at the desk")
    real = real_tournament_holding([kept, *(make_player() for _ in range(3))], make_user())

    call_command("seed_demo", "--force")

    club = Tournament.objects.get(championship__slug="demo-lord-of-catan")
    assert club.entries.count() == 48 and club.entries.filter(player=kept).exists()
    assert Player.objects.get(pk=kept.pk).name == "Renamed at the desk"
    assert real.entries.filter(player=kept).exists()


def test_seed_demo_refuses_with_debug_off_unless_forced(settings):
    """Its logins have published passwords: on a real site (DEBUG off) it writes nothing unless told --force."""
    settings.DEBUG = False
    before = db_snapshot.snapshot()
    with pytest.raises(CommandError, match=r"DEBUG is off.*--force"):
        call_command("seed_demo")
    assert db_snapshot.changed(before, db_snapshot.snapshot()) == []


def test_demo_has_two_realistic_qualifiers_with_friends(demo):
    dubai, abu_dhabi = Tournament.objects.filter(kind="qualifier").order_by("date")
    assert dubai.entries.count() >= 24 and abu_dhabi.entries.count() >= 24
    assert dubai.entries.count() % 4 and abu_dhabi.entries.count() % 4  # some 3-player tables
    assert Relationship.objects.count() >= 4


def test_demo_logins_work_and_have_their_roles(demo, rf):
    request = rf.get("/")
    organizer = authenticate(request, username="organizer", password="organizer-demo")
    referee = authenticate(request, username="referee", password="referee-demo")
    assert organizer and referee
    assert StaffRole.objects.filter(user=organizer, role="organizer", championship__isnull=False).exists()
    # Dubai, Abu Dhabi, the world championship, Lord of Catan and the Jordan finals to come: a game is published
    # only with a referee.
    assert StaffRole.objects.filter(user=referee, role="referee").count() == 5


def test_one_qualifier_is_finished_and_the_other_in_progress(demo):
    dubai, abu_dhabi = Tournament.objects.filter(kind="qualifier").order_by("date")
    assert set(Game.objects.filter(tournament=dubai).values_list("status", flat=True)) == {"finished"}
    assert not RecordSheet.objects.filter(table__game__tournament=dubai).exclude(status="signed_off").exists()
    statuses = list(Game.objects.filter(tournament=abu_dhabi).order_by("number").values_list("status", flat=True))
    assert statuses == ["finished", "published", "planned"]
    in_game_two = set(RecordSheet.objects.filter(table__game__tournament=abu_dhabi, table__game__number=2)
                      .values_list("status", flat=True))
    assert in_game_two == {"signed_off", "signing", "draft"}  # publishing opened every sheet


def played(tournament: Tournament) -> dict[str, list[Table]]:
    """The tournament's tables by stage kind, in game and table order."""
    tables: dict[str, list[Table]] = {}
    for table in (Table.objects.filter(game__tournament=tournament).select_related("game__stage", "sheet")
                  .prefetch_related("seats__score").order_by("game__number", "number")):
        tables.setdefault(table.game.stage.kind, []).append(table)
    return tables


def players_at(table: Table) -> set[int]:
    return {seat.entry_id for seat in table.seats.all()}


def winner_of(table: Table) -> int:
    (winner,) = [seat.entry_id for seat in table.seats.all() if seat.score.winner]
    return winner


def assert_finished_with_a_complete_classification(tournament: Tournament, tables: dict[str, list[Table]]) -> None:
    """Every game signed off; the final's winner first, the finalists 1-4, the semifinalists 5-16, everyone ranked."""
    assert tournament.status == "finished"
    assert set(Game.objects.filter(tournament=tournament).values_list("status", flat=True)) == {"finished"}
    assert not RecordSheet.objects.filter(table__game__tournament=tournament).exclude(status="signed_off").exists()
    (final,) = tables["final"]
    semifinal_winners = {winner_of(table) for table in tables["semifinal"]}
    assert players_at(final) == semifinal_winners
    rows = compute_standings(tournament)
    assert sorted(row["entry"] for row in rows) == sorted(tournament.entries.values_list("pk", flat=True))
    assert [row["rank"] for row in rows[:4]] == [1, 2, 3, 4]
    assert rows[0]["entry"] == winner_of(final)
    assert {row["entry"] for row in rows[:4]} == semifinal_winners
    semifinalists = set().union(*map(players_at, tables["semifinal"]))
    assert {row["entry"] for row in rows[4:16]} == semifinalists - semifinal_winners


def test_world_championship_is_played_from_the_preliminaries_to_the_final(demo):
    """Seed 004 §1.1.2-§1.1.6, §1.3.4: four preliminary games, the top 16 at the seed chart's four semifinal tables,
    the semifinal winners at the final, whose winner heads the classification (world champion)."""
    world = Tournament.objects.get(championship__slug="demo-world-championship")
    assert (world.ruleset, world.kind) == ("cwc-2025", "world")
    entries = world.entries.select_related("player__country")
    assert entries.count() >= 32
    assert len({entry.player.country.code for entry in entries}) >= 8
    tables = played(world)
    assert len({table.game.number for table in tables["preliminary"]}) == 4
    assert all(len(table.seats.all()) == 4 for table in tables["preliminary"])

    preliminary = compute_standings(world, world.stages.get(kind="preliminary"))
    assert not any(row["tied"] for row in preliminary[:16])  # any tie there was settled by a recorded draw
    by_rank = [row["entry"] for row in preliminary]
    assert [players_at(table) for table in tables["semifinal"]] == [
        {by_rank[rank - 1] for rank in chart} for chart in SEED_CHART]
    assert_finished_with_a_complete_classification(world, tables)


def test_lord_of_catan_is_played_from_the_ranking_round_to_the_final(demo):
    """Seed 003, tournament structure: one ranking round on 4-player tables; with 12 table winners the 4 second
    places with the best tempo (score × table total ÷ game time) complete the 16 semifinalists (4 tables); the 4
    semifinal winners play the final. Non-winners count at most 9 (seed 003, development cards 4)."""
    club = Tournament.objects.get(championship__slug="demo-lord-of-catan")
    assert club.ruleset == "lord-of-catan"
    tables = played(club)
    ranking_round = tables["preliminary"]
    assert len(ranking_round) == 12 and all(len(table.seats.all()) == 4 for table in ranking_round)
    assert all(table.sheet.start_time and table.sheet.end_time for kind in tables for table in tables[kind])

    def tempo(table: Table, entry: int) -> Fraction:
        counted = {seat.entry_id: min(seat.score.vp, 10 if seat.score.winner else 9) for seat in table.seats.all()}
        return Fraction(counted[entry] * sum(counted.values()),
                        game_minutes(table.sheet.start_time, table.sheet.end_time))

    def second(table: Table) -> int:
        others = [seat for seat in table.seats.all() if not seat.score.winner]
        return max(others, key=lambda seat: seat.score.vp).entry_id

    seconds = sorted(((tempo(table, second(table)), second(table)) for table in ranking_round), reverse=True)
    assert seconds[3][0] > seconds[4][0]
    semifinalists = set().union(*map(players_at, tables["semifinal"]))
    assert semifinalists == {winner_of(table) for table in ranking_round} | {entry for _, entry in seconds[:4]}
    assert_finished_with_a_complete_classification(club, tables)


def test_demo_rosters_have_names_in_many_scripts_and_players_from_many_countries(demo):
    """Names in many scripts and countries, as the events of the seeds have: 001 (cover: the Arab world), 003 (a
    Hebrew club) and 004 §1.1.4 (players of many countries, kept apart at the world championship's tables)."""
    players = Player.objects.filter(email__endswith="@example.org")
    scripts = {unicodedata.name(ch).split()[0] for player in players for ch in player.name if ch.isalpha()}
    assert {"LATIN", "ARABIC", "HEBREW", "CYRILLIC", "GREEK", "CJK", "HANGUL", "DEVANAGARI", "THAI",
            "ETHIOPIC"} <= scripts
    assert players.values("country").distinct().count() >= 20


def test_a_tie_that_decides_a_semifinal_seat_is_settled_by_a_recorded_drawing_of_lots():
    """Seed 004 §1.3.2 ("lots will be drawn") and §1.1.5: a tie inside the top 16 decides who sits at which
    semifinal table, so before seating the semifinals the demo records a drawing of lots for each such tie,
    in an order fixed by its seed (its own results avoid ties; this keeps it working if they change)."""
    world = create_championship_from_preset("world-championship", user=make_admin()).tournaments.get()
    entries = make_entries(world, 8)
    referee = make_official(world)
    game = make_game(world, [entries[:4], entries[4:]])
    for table in game.tables.order_by("number"):
        play(table, [10, 8, 6, 4], referee)  # the two players of each place are equal on every tiebreaker
    assert sum(row["tied"] for row in compute_standings(world)) == 8

    _settle_ties(world, world.stages.get(kind="semifinal"), referee, random.Random(1))

    assert not any(row["tied"] for row in compute_standings(world))
    draws = TiebreakDraw.objects.filter(tournament=world).prefetch_related("places")
    assert sorted(draw.method for draw in draws) == ["lots"] * 4
    assert {frozenset(place.entry_id for place in draw.places.all()) for draw in draws} == {
        frozenset((entries[i].pk, entries[4 + i].pk)) for i in range(4)}


def test_the_players_side_a_tournament_to_come_open_to_registration_with_a_waiting_list(demo):
    """Issue 32 item 4: `make run` showed nothing of registration, the waiting list or self check-in. The Jordan
    finals (001 §3: no qualifiers) are to come, open to players' own registrations: 8 places held by players who
    confirmed by the emailed link, 3 waiting in the order they confirmed, 1 not confirmed; self check-in ready."""
    finals = Tournament.objects.select_related("championship").get(slug="demo-amman-finals")
    assert finals.championship.slug == "demo-jordan-championship" and finals.date > timezone.localdate()
    assert finals.self_registration and finals.capacity == 8 and signup.why_closed(finals) is None
    rows = list(csv.DictReader(io.StringIO(OPEN_ROSTER.read_text(encoding="utf-8"))))
    registrations = {r.email: r for r in Registration.objects.filter(tournament=finals)}
    assert [registrations[row["email"]].status for row in rows] == ["entered"] * 8 + ["waiting"] * 3 + ["unconfirmed"]
    assert [r.email for r in places.waiting(finals)] == [row["email"] for row in rows[8:11]]
    assert places.places_left(finals) == 0 and finals.entries.count() == 8
    assert AuditEntry.objects.filter(tournament=finals, action="registration.confirmed", user=None).count() == 11

    register = Client().get("/t/demo-amman-finals/register/").content.decode()
    assert "The tournament is full: you go on the waiting list (3 waiting before you)" in register
    desk = Client()
    desk.force_login(get_user_model().objects.get(username="organizer"))
    assert re.search(r"Places taken</dt>\s*<dd>8 / 8</dd>",
                     desk.get("/organize/demo-amman-finals/registrations/").content.decode())
    assert "Open self check-in" in desk.get("/organize/demo-amman-finals/check-in/").content.decode()
    assert self_checkin.current_window(finals) is None  # ready to open, as the README says


def test_the_late_arrivals_vp_off_is_shown_to_the_public(demo, client):
    """Issue 32 item 6: the demo's late arrival (001 §6, 9 minutes late) had 1 VP less than their sheets and nothing
    said why: the standings, their CSV and the player's page now show the deduction."""
    dubai, abu_dhabi = Tournament.objects.filter(kind="qualifier").order_by("date")
    late = abu_dhabi.entries.get(minutes_late=9)
    standings = client.get(f"/t/{abu_dhabi.slug}/standings/").content.decode()
    row = next(r for r in standings.split("<tr") if f"/players/{late.player_id}/" in r)
    assert 'data-label="VP deducted"><span class="nowrap">1</span>' in row
    rows = list(csv.DictReader(io.StringIO(client.get(f"/t/{abu_dhabi.slug}/standings.csv").content
                                           .decode("utf-8-sig"))))
    assert next(r for r in rows if r["player"] == late.player.name)["vp_deducted"] == "1"
    page = client.get(f"/t/{abu_dhabi.slug}/players/{late.player_id}/").content.decode()
    assert "VP deducted" in page and "1 (late arrival)" in page
