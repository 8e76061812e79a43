"""`manage.py rate` over 100,000 signed-off four-player games, next to a baseline that reads and sorts the same games.

Run from anywhere: `python benchmarks/bench_ratings.py` (`--tables N` for another size). Builds, in bulk and in a
throwaway SQLite database (or `BENCH_DATABASE_URL`), 1,000 running tournaments of 100 players from a pool of
8,000, each of 4 games of 25 tables signed off, then times in CPU seconds of this process (SQLite works inside it,
so the database's work counts too):

* baseline: the rated games' rows read with the query the ratings use (`ratings.games.score_rows`) and sorted into
  the rating order (date, tournament, game, table);
* rate: `manage.py rate` (read, place each table, rate every table in order, write the history and the ratings).

Target (issue 26): rate within 20 times the baseline. Exit status 1 when it is missed.
"""
import argparse
import logging
import random
import sys
import time
from datetime import date, timedelta

from django_setup import setup

setup("ratings")

from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from championships.models import Entry, Player, Stage, Tournament  # noqa: E402
from ratings.games import score_rows  # noqa: E402
from ratings.models import PlayerRating, RatingChange  # noqa: E402
from results.models import RecordSheet, Score  # noqa: E402
from scheduling.models import Game, Seat, Table  # noqa: E402
from tests.factories import make_admin, make_championship  # noqa: E402

TARGET = 20
POOL, PLAYERS, GAMES = 8_000, 100, 4
BATCH = 10_000


def build(tables: int) -> None:
    """`tables` signed-off tables of four: tournaments of PLAYERS players and GAMES games, written in bulk."""
    rng = random.Random(26)
    admin = make_admin()
    championship = make_championship()
    pool = Player.objects.bulk_create((Player(name=f"Rated {i:05d}") for i in range(POOL)), batch_size=BATCH)
    per_tournament = PLAYERS // 4 * GAMES
    count = max(1, tables // per_tournament)
    start = date(2020, 1, 4)
    tournaments = Tournament.objects.bulk_create(
        Tournament(championship=championship, name=f"Event {n}", slug=f"event-{n}", kind="qualifier",
                   ruleset="cnc-2022", status="finished", date=start + timedelta(days=n // 3))
        for n in range(count))
    stages = Stage.objects.bulk_create(Stage(tournament=t, order=1, kind="preliminary", name="Games", games=GAMES,
                                             seating="scheduled") for t in tournaments)
    now = timezone.now()
    for first in range(0, count, 50):  # 50 tournaments at a time: a few hundred thousand rows in memory at most
        chunk = list(zip(tournaments[first:first + 50], stages[first:first + 50]))
        entries = Entry.objects.bulk_create(
            (Entry(tournament=t, player=p) for t, _s in chunk for p in rng.sample(pool, PLAYERS)), batch_size=BATCH)
        games = Game.objects.bulk_create(Game(tournament=t, stage=s, number=g, status="finished")
                                         for t, s in chunk for g in range(1, GAMES + 1))
        tables_made = Table.objects.bulk_create((Table(game=g, number=n) for g in games for n in range(1, 26)),
                                                batch_size=BATCH)
        sheets = RecordSheet.objects.bulk_create(
            (RecordSheet(table=t, status="signed_off", version=1, signed_off_by=admin, signed_off_at=now)
             for t in tables_made), batch_size=BATCH)
        by_tournament: dict[int, list[Entry]] = {}
        for entry in entries:
            by_tournament.setdefault(entry.tournament_id, []).append(entry)
        orders = {}
        for game in games:  # each game seats the tournament's players in a new random order, four to a table
            orders[game.pk] = rng.sample(by_tournament[game.tournament_id], PLAYERS)
        seats, scores = [], []
        for table, sheet in zip(tables_made, sheets):
            game = table.game
            order = orders[game.pk][(table.number - 1) * 4:table.number * 4]
            vps = [10] + sorted((rng.randint(2, 9) for _ in range(3)), reverse=True)
            for position, (entry, vp) in enumerate(zip(order, vps), start=1):
                seat = Seat(table=table, game=game, entry=entry, position=position)
                seats.append(seat)
                scores.append(Score(sheet=sheet, seat=seat, vp=vp, winner=position == 1))
        Seat.objects.bulk_create(seats, batch_size=BATCH)
        Score.objects.bulk_create(scores, batch_size=BATCH)


def cpu(work) -> tuple[float, float, object]:
    started, wall = time.process_time(), time.perf_counter()
    result = work()
    return time.process_time() - started, time.perf_counter() - wall, result


def baseline() -> int:
    rows = list(score_rows())
    rows.sort(key=lambda row: (row[0] or date.max, row[1], row[3], row[4]))
    return len(rows)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=100_000)
    size = parser.parse_args().tables
    logging.disable(logging.WARNING)
    call_command("migrate", verbosity=0)
    with transaction.atomic():
        _cpu, built, _ = cpu(lambda: build(size))
    print(f"ratings: {size:,} four-player tables of {POOL:,} players built in {built:.0f} s")
    base_cpu, base_wall, seats = cpu(baseline)
    rate_cpu, rate_wall, _ = cpu(lambda: call_command("rate", verbosity=0))
    ratio = rate_cpu / base_cpu
    print(f"{'':>28} {'CPU s':>7} {'wall s':>7}")
    print(f"{'baseline: read and sort':>28} {base_cpu:>7.2f} {base_wall:>7.2f}   ({seats:,} seats)")
    print(f"{'manage.py rate':>28} {rate_cpu:>7.2f} {rate_wall:>7.2f}   "
          f"({RatingChange.objects.count():,} history rows, {PlayerRating.objects.count():,} players)")
    verdict = "met" if ratio < TARGET else "MISSED"
    print(f"rate / baseline: {ratio:.1f}x (target under {TARGET}x: {verdict})")
    return 0 if ratio < TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
