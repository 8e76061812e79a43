"""A living demo of every format, created once: a later run leaves it, and everything else, as it is.

- A UAE-style national championship (`cnc-2022`, seed 001 §3): Dubai is finished (seating and
  every result signed off); Abu Dhabi is in progress (game 1 signed off, game 2 half entered,
  game 3 planned).
- A finished world championship (`cwc-2025`, seed 004 §1.1): 32 players from 19 countries, four
  preliminary games, the semifinals seated by the seed chart, the final.
- A finished Lord of Catan club tournament (`lord-of-catan`, seed 003): a ranking round of 12
  tables, 16 to the semifinals (the 12 table winners and the 4 best second places by tempo), the
  final.
- The players' side: a Jordanian national championship (seed 001 §3, no qualifiers) whose finals are to
  come, three weeks after the demo was made, open for self-registration with 8 places: 8 players who
  registered and confirmed by the emailed link hold them, 3 wait in the order they confirmed, 1 has not
  confirmed yet; the desk's self check-in window is ready to open (no official start is set, so a player
  checking in with the QR code is on time whenever the demo is tried).

Everything goes through the same services as the app. Ties that decide who goes on or where
they sit are settled by a recorded drawing of lots in an order fixed by the demo's seed. Around
the games, as the seeds describe: Abu Dhabi's door had a late arrival (1 VP) and a player not
admitted (001 §6); each event has a table with timed turns as its rules allow
(001 §5 in Abu Dhabi, still playing; 004 §1.1.8 with a reduced turn and timed placements; 003's
slow player's minute); every sheet records its banker (the starting player, a judge in the world
semifinals and final, once a player the table elected: 001 §7c, 004 §2.0.4); Lord of Catan tables,
the final included, record the play order the dice gave (003).

`make run` seeds on every start, so a run when the demo exists writes nothing: what staff recorded
while trying it stays, and its players, who may since play in real tournaments too, are never
deleted. A demo championship removed by hand is created again, reusing its players as they are.
"""
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, time, timedelta
from pathlib import Path

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import transaction
from django.utils import timezone

from attendance.checkin import check_in
from championships import signup
from championships.list_file import parse_list
from championships.models import Championship, Player, StaffRole, Stage, Tournament
from championships.services import assign_staff, create_championship_from_preset, enter_players, register_players
from core.changes import announce
from ranking.qualification import seat_seeded_stage
from ranking.standings import compute_standings, tied_groups
from results.banker import record_banker
from results.draws import record_draw
from results.publishing import publish_game, record_play_order, records_play_order
from results.sheets import SheetInput, save_entry, sign, sign_off
from scheduling.clocks import set_timed_turns
from scheduling.models import Game, Table
from scheduling.services import generate_seating

DEMO_SLUG = "demo-uae-championship"
WORLD_SLUG = "demo-world-championship"
CLUB_SLUG = "demo-lord-of-catan"
OPEN_SLUG = "demo-jordan-championship"
DEMO_SLUGS = (DEMO_SLUG, WORLD_SLUG, CLUB_SLUG, OPEN_SLUG)
OPEN_TOURNAMENT = "demo-amman-finals"
"""The finals players register for themselves: `/t/demo-amman-finals/register/` (README, Getting started)."""
OPEN_PLACES = 8
ROSTER = Path(__file__).with_name("players.csv")
WORLD_ROSTER = Path(__file__).with_name("world_players.csv")
CLUB_ROSTER = Path(__file__).with_name("club_players.csv")
OPEN_ROSTER = Path(__file__).with_name("open_players.csv")
LOGINS = {"organizer": "organizer-demo", "referee": "referee-demo"}
SEATING_BUDGET = 20_000
"""Candidate swaps for the seating search of the world and club events: ample for 32 or 48 players, and fast."""

Result = Callable[[random.Random, int], list[int]]
Times = Callable[[random.Random, Game], tuple[time, time]]


@dataclass(frozen=True)
class DemoSummary:
    championships: list[Championship]
    """Every demo championship: national, world, club."""
    created: list[Championship]
    """Those this run created (empty: the demo was there and nothing changed)."""
    logins: dict[str, str | None]
    """Username to password; None for an account that existed already (its password was left alone)."""


def _staff_user(username: str, password: str):
    """The demo login, created with its published password; an existing account is used as it is."""
    user, created = get_user_model().objects.get_or_create(username=username)
    if created:
        user.set_password(password)
        user.save(update_fields=["password"])
    return user, created


@transaction.atomic
def seed_demo() -> DemoSummary:
    """Create the demo championships that do not exist; those that do are left exactly as they are."""
    builders = ((DEMO_SLUG, lambda organizer, referee: _national(organizer, referee)[0]),
                (WORLD_SLUG, _world), (CLUB_SLUG, _club), (OPEN_SLUG, _players_side))
    existing = {c.slug: c for c in Championship.objects.filter(slug__in=DEMO_SLUGS)}
    missing = [(slug, build) for slug, build in builders if slug not in existing]
    logins: dict[str, str | None] = dict(LOGINS)
    created: list[Championship] = []
    if missing:
        users = {}
        for username, password in LOGINS.items():
            users[username], new = _staff_user(username, password)
            logins[username] = password if new else None
        users["organizer"].user_permissions.add(Permission.objects.get(codename="add_championship",
                                                                       content_type__app_label="championships"))
        for slug, build in missing:
            existing[slug] = build(users["organizer"], users["referee"])
            created.append(existing[slug])
        # some steps write what the services would (a status, a date): the new tournaments' pages start afresh
        announce(*Tournament.objects.filter(championship__in=created).values_list("pk", flat=True), results=True)
    return DemoSummary([existing[slug] for slug in DEMO_SLUGS], created, logins)


def _demo_championship(preset: str, slug: str, name: str, year: int, organizer) -> Championship:
    championship = create_championship_from_preset(preset, user=organizer, year=year, name=name)
    championship.slug = slug
    championship.save(update_fields=["slug"])
    return championship


def _roster(path: Path, organizer, tournament: Tournament, rows: slice = slice(None)) -> dict[int, Player]:
    """The roster's players (`rows` of it) by line, registered from `tournament`, whose activity log says so; one
    registered already (left from a demo removed by hand, perhaps entered in a real tournament since) is linked as
    it is, not reset to the file (`register_players`)."""
    return register_players(parse_list(path.read_text(encoding="utf-8"))[rows], user=organizer,
                            tournament=tournament)


def _national(organizer, referee) -> tuple[Championship, list[Tournament]]:
    """Seed 001 §3 (UAE): two qualifiers of three games, the top 8 of each to the finals."""
    championship = _demo_championship("uae-2022", DEMO_SLUG, "Demo UAE Championship 2026", 2026, organizer)
    dubai, abu_dhabi, finals = championship.tournaments.order_by("date")

    # each player registered from the first qualifier they play (friends in the same one): logs and backups agree
    players = sorted({**_roster(ROSTER, organizer, dubai, slice(26)),
                      **_roster(ROSTER, organizer, abu_dhabi, slice(26, None))}.items())
    enter_players(dubai, dict(players[:26]), user=organizer)
    enter_players(abu_dhabi, dict(players[21:]), user=organizer)

    for tournament in (dubai, abu_dhabi):
        assign_staff(referee, StaffRole.Role.REFEREE, user=organizer, tournament=tournament)

    _at_the_door(abu_dhabi, organizer)
    rng = random.Random(2026)
    for tournament, status in ((dubai, Tournament.Status.FINISHED), (abu_dhabi, Tournament.Status.RUNNING)):
        tournament.status = status
        tournament.save(update_fields=["status"])
        generate_seating(tournament.stages.get().pk, user=organizer, seed=7)
    for game in Game.objects.filter(tournament=dubai).order_by("number"):
        _play(game, organizer, referee, rng, tables=None)
    game_one, game_two = Game.objects.filter(tournament=abu_dhabi).order_by("number")[:2]
    _play(game_one, organizer, referee, rng, tables=None)
    _play(game_two, organizer, referee, rng, tables=3, sign_off_first=2)
    _around_the_tables(game_two, referee)
    return championship, [dubai, abu_dhabi, finals]


def _at_the_door(tournament: Tournament, organizer) -> None:
    """Seed 001 §6: the official start is 9:45 and the games start 15 minutes later; one player checked in 9
    minutes late (1 VP off their total), one came 20 minutes late and was not admitted; the rest on time."""
    tournament.official_start = time(9, 45)
    tournament.save(update_fields=["official_start"])
    entries = list(tournament.entries.order_by("pk"))
    late = {entries[3].pk: 9, entries[7].pk: 20}
    for entry in entries:
        check_in(tournament, entry.pk, user=organizer, minutes_late=late.get(entry.pk, 0))


def _around_the_tables(game: Game, referee) -> None:
    """Seed 001 §7c: at table 3 the starting player did not want to bank and the table elected the second player;
    001 §5: on table 4, still playing, the referee imposed 2-minute turns (the rules allow up to three)."""
    third, fourth = Table.objects.filter(game=game, number__in=(3, 4)).select_related("sheet").order_by("number")
    starter, second = third.seats.order_by("position").values_list("entry_id", flat=True)[:2]
    record_banker(third.sheet.pk, second, user=referee, was=str(starter))
    set_timed_turns(fourth.pk, True, user=referee, seconds=120)


def _world(organizer, referee) -> Championship:
    """Seed 004 §1.1: four preliminary games, the top 16 at the seed chart's four semifinal tables, the final."""
    championship = _demo_championship("world-championship", WORLD_SLUG, "Demo World Championship 2025", 2025,
                                      organizer)
    (world,) = championship.tournaments.all()
    # 004 §1.1.8: in game 2 a judge timed table 3, the turn reduced to 1:30 to keep the schedule, placements 1:00
    _finished_event(world, date(2025, 11, 14), WORLD_ROSTER, organizer, referee, random.Random(2025), _distinct_result,
                    timed=(2, 3, {"seconds": 90, "placement_seconds": 60}))
    return championship


def _club(organizer, referee) -> Championship:
    """Seed 003: one ranking game, 16 to the semifinals by wins, second places and tempo, the final."""
    championship = _demo_championship("lord-of-catan", CLUB_SLUG, "Demo Lord of Catan 2026", 2026, organizer)
    (club,) = championship.tournaments.all()
    # 003, General rules 5: at table 5 of the ranking round a slow player got a minute, then 2-minute turns
    _finished_event(club, date(2026, 3, 20), CLUB_ROSTER, organizer, referee, random.Random(3), _distinct_result,
                    timed=(1, 5, {}))
    return championship


def _players_side(organizer, referee) -> Championship:
    """Seed 001 §3 (Jordan): no qualifiers, the players go straight to the finals, here open to registration by the
    players themselves. Each registers and confirms through `championships.signup` as on the page (the demo holds
    the emailed link's token in the player's stead), so the places, the waiting list and its order, the emails and
    the activity log are what a real registration leaves."""
    today = timezone.localdate()
    championship = _demo_championship("jordan-2022", OPEN_SLUG, f"Demo Jordan Championship {today.year}", today.year,
                                      organizer)
    (finals,) = championship.tournaments.all()
    finals.slug, finals.date = OPEN_TOURNAMENT, today + timedelta(weeks=3)
    finals.status = Tournament.Status.REGISTRATION
    finals.save(update_fields=["slug", "date", "status"])
    assign_staff(referee, StaffRole.Role.REFEREE, user=organizer, tournament=finals)
    signup.change_settings(finals, signup.Settings(self_registration=True, capacity=OPEN_PLACES,
                                                   registration_closes=None, registration_approval=False),
                           user=organizer)
    *confirming, unconfirmed = parse_list(OPEN_ROSTER.read_text(encoding="utf-8"))
    for row in (*confirming, unconfirmed):
        token = secrets.token_urlsafe(32)
        language = "ar" if any("\u0600" <= ch <= "\u06ff" for ch in row.name) else "en"
        signup.register(finals.pk, signup.Details(name=row.name, email=row.email, date_of_birth=row.date_of_birth,
                                                  country=row.country, language=language), token=token)
        if row is not unconfirmed:
            signup.confirm(finals.slug, token)
    return championship


def _finished_event(tournament: Tournament, day: date, roster: Path, organizer, referee, rng: random.Random,
                    result: Result, timed: tuple[int, int, dict] | None = None) -> None:
    """Enter the roster, play the scheduled first stage, then seat and play each seeded stage by rank.

    `timed` (game number, table number, lengths) is the table of the first stage a referee timed.
    """
    tournament.date, tournament.status = day, Tournament.Status.RUNNING
    tournament.save(update_fields=["date", "status"])
    enter_players(tournament, _roster(roster, organizer, tournament), user=organizer)
    assign_staff(referee, StaffRole.Role.REFEREE, user=organizer, tournament=tournament)
    first, *seeded = tournament.stages.order_by("order")
    generate_seating(first.pk, user=organizer, seed=11, budget=SEATING_BUDGET)
    for game in Game.objects.filter(stage=first).order_by("number"):
        _play_chosen_order(game, organizer, referee, rng, result, timed=timed)
    for stage in seeded:
        _settle_ties(tournament, stage, referee, rng)
        game = seat_seeded_stage(stage.pk, user=organizer)
        _play_chosen_order(game, organizer, referee, rng, result)
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])


def _play_chosen_order(game: Game, organizer, referee, rng: random.Random, result: Result,
                       timed: tuple[int, int, dict] | None = None) -> None:
    """Publish the game, record the play order its players chose where they choose it, and play every table.

    Seeded tables: chair, colour and play order in seed order (seed 004 §1.1.5-1.1.6). Lord of Catan:
    the players settle seats and a 2d6 roll decides who starts, in every game (seed 003).
    """
    publish_game(game.pk, user=organizer)
    if records_play_order(game):
        for table in Table.objects.filter(game=game).order_by("number"):
            order = list(table.seats.order_by("position").values_list("entry_id", flat=True))
            rng.shuffle(order)
            record_play_order(table.pk, order, user=referee)
    if timed is not None and timed[0] == game.number:
        set_timed_turns(Table.objects.get(game=game, number=timed[1]).pk, True, user=referee, **timed[2])
    _play(game, organizer, referee, rng, tables=None, result=result, times=_times)


def _settle_ties(tournament: Tournament, stage: Stage, referee, rng: random.Random) -> None:
    """Record a drawing of lots for each group still tied where it decides who plays `stage` or where.

    Only a stage seated from the whole ranking needs it (a semifinal's top 16); the final seats the
    semifinal winners.
    """
    previous = tournament.stages.filter(order__lt=stage.order).order_by("-order").first()
    if previous is None or previous.kind == Stage.Kind.SEMIFINAL:
        return
    places = stage.players or 4
    for group in tied_groups(compute_standings(tournament)):
        if group[0]["rank"] > places:
            continue
        order = sorted(group, key=lambda row: row["player"])
        rng.shuffle(order)
        record_draw(tournament, [row["entry"] for row in order], user=referee, method="lots")


def _result(rng: random.Random, size: int) -> list[int]:
    """Plausible VP for one table: a winner with 10 (now and then 11), the others 2 to 9."""
    vps = [rng.randint(2, 9) for _ in range(size)]
    vps[rng.randrange(size)] = 11 if rng.random() < 0.1 else 10
    return vps


def _distinct_result(rng: random.Random, size: int) -> list[int]:
    """Like `_result`, but no two players of the table score the same, so no place is shared."""
    vps = rng.sample(range(2, 10), size - 1)
    vps.insert(rng.randrange(size), 11 if rng.random() < 0.1 else 10)
    return vps


def _national_times(rng: random.Random, game: Game) -> tuple[time, time]:
    start = time(10 + 2 * (game.number - 1), rng.choice([0, 5, 10]))
    return start, time(start.hour + 1, rng.randint(15, 55))


def _times(rng: random.Random, game: Game) -> tuple[time, time]:
    """A game every two hours from 9:00; it lasts 45 to 110 minutes (Lord of Catan ranks by tempo)."""
    start = 9 * 60 + 120 * (game.number - 1) + rng.choice([0, 5, 10])
    return _clock(start), _clock(start + rng.randint(45, 110))


def _clock(minutes: int) -> time:
    """The time of day `minutes` after midnight (past midnight, on the next day's clock)."""
    return time(*divmod(minutes % (24 * 60), 60))


def _play(game: Game, organizer, referee, rng: random.Random, *, tables: int | None,
          sign_off_first: int | None = None, result: Result = _result, times: Times = _national_times) -> None:
    """Publish the game and enter the results of its first `tables` tables (all when None)."""
    publish_game(game.pk, user=organizer)
    chosen = list(Table.objects.filter(game=game).order_by("number").select_related("sheet"))[:tables]
    for index, table in enumerate(chosen):
        seats = list(table.seats.order_by("position"))
        sheet = table.sheet
        start, end = times(rng, game)
        data = SheetInput(dict(zip((s.entry_id for s in seats), result(rng, len(seats)))), None, start, end)
        sheet = save_entry(sheet.pk, data, user=referee, base_version=0)
        if sign_off_first is not None and index >= sign_off_first:
            continue
        for seat in seats:
            sheet = sign(sheet.pk, seat.entry_id, user=referee, method="tap", version=sheet.version)
        sign_off(sheet.pk, user=referee, version=sheet.version)
