"""PDF layout: the record sheets of a 200-player game (50 tables, one page each, with QR codes) and the
standings of a 1,000-player tournament (3 games signed off), beside a trivial one-page PDF laid out in the same run.

Run from anywhere: `python benchmarks/bench_pdfs.py`. Builds the tournaments in a throwaway SQLite database
(or `BENCH_DATABASE_URL`) and times the same calls the views make (data, template, WeasyPrint), best of a few
runs. Target (issue 13): under 4 s each on a 2-core machine; the ratio to the one-page PDF is the figure to
compare between machines.
"""
import logging
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL",
                                            f"sqlite:///{tempfile.mkdtemp(prefix='bench-pdfs-')}/bench.sqlite3")
os.environ["DEBUG"] = "0"
os.environ["SITE_URL"] = "https://catan.example.org"  # the QR codes' address
os.environ.pop("REDIS_URL", None)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "catan_tournaments.settings")

import django

django.setup()

from django.core.management import call_command  # noqa: E402
from django.utils import timezone  # noqa: E402

from core.pdf import render_pdf  # noqa: E402
from printing.documents import game_pdf  # noqa: E402
from ranking.printing import standings_pdf  # noqa: E402
from results.models import RecordSheet, Score  # noqa: E402
from scheduling.models import Game, Seat  # noqa: E402
from tests.factories import make_admin, make_tournament  # noqa: E402
from tests.scheduling.crowd import crowd, seat_in_rotation  # noqa: E402

RUNS = 3


def signed_off(game: Game, user) -> None:
    """Every table of the game signed off: the first seat wins with 10, the others 7, 5, 3."""
    seats = list(Seat.objects.filter(game=game).order_by("table_id", "position"))
    now = timezone.now()
    RecordSheet.objects.bulk_create({s.table_id: RecordSheet(table_id=s.table_id, status=RecordSheet.Status.SIGNED_OFF,
                                                             version=1, signed_off_by=user, signed_off_at=now)
                                     for s in seats}.values())
    sheets = {s.table_id: s for s in RecordSheet.objects.filter(table__game=game)}
    Score.objects.bulk_create(Score(sheet=sheets[s.table_id], seat=s, vp=(10, 7, 5, 3)[s.position - 1],
                                    winner=s.position == 1) for s in seats)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)


def best_of(fn) -> tuple[float, int]:
    times, size = [], 0
    for _ in range(RUNS):
        start = time.perf_counter()
        size = len(fn())
        times.append(time.perf_counter() - start)
    return min(times), size


def main() -> None:
    logging.disable(logging.WARNING)
    call_command("migrate", verbosity=0)
    admin = make_admin()
    sheets_event = make_tournament(slug="bench-sheets", games=1)
    seat_in_rotation(sheets_event.stages.get(), crowd(sheets_event, 200))
    game = sheets_event.games.get()
    standings_event = make_tournament(slug="bench-standings", games=3)
    seat_in_rotation(standings_event.stages.get(), crowd(standings_event, 1000))
    for played in standings_event.games.all():
        signed_off(played, admin)

    def baseline():
        return render_pdf("print/base.html", {"tournament": sheets_event}, paper="a4")

    def record_sheets():
        return game_pdf("record_sheets", sheets_event, game, "a4")

    def standings():
        return standings_pdf(standings_event, "a4")

    baseline()  # loads WeasyPrint and Pango once, as a running server has
    base, _ = best_of(baseline)
    print(f"PDFs, best of {RUNS} (baseline: a one-page PDF, {base:.3f} s)")
    print(f"{'document':<42} {'s':>7} {'ratio':>7} {'KB':>7}")
    for label, fn in (("record sheets, 200 players (50 tables)", record_sheets),
                      ("standings, 1,000 players", standings)):
        seconds, size = best_of(fn)
        print(f"{label:<42} {seconds:>7.2f} {seconds / base:>7.1f} {size / 1024:>7.0f}")


if __name__ == "__main__":
    main()
