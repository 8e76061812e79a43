"""The PDFs' figures for `bench_heavy.py` (run by it in child processes, not by `make bench`).

`heavy_pdfs.py build DB`: a throwaway SQLite database with the three documents' tournaments: 200 players seated
for one game (the record sheets of its 50 tables, with their QR codes), 1,000 players over three signed-off
games (the standings) and 3,000 players seated for a published game (its public seating).
`heavy_pdfs.py measure DB DOCUMENT`: this process lays the document out as the views do (data, template,
WeasyPrint) and prints one JSON object: its CPU seconds (`time.process_time`, median of RUNS), the baseline's,
the process's peak resident memory (`VmHWM`: everything a web worker holds while laying it out), its peak before
the document (Django, WeasyPrint and the fonts loaded, a page laid out: what the document's own memory comes on
top of) and the pages.

The baseline is a one-page PDF laid out as every PDF was before this work, parsing the print stylesheet and its
fonts for it: a fixed amount of work, so the ratio compares machines and not this code's one-page PDF (which
no longer parses them, see `core/pdf.py`); that one is printed beside it. Before measuring, the process lays a
page out once (Pango and the fonts loaded, as in a running server) and, for the standings, computes them once
(a server keeps them in its cache). The baselines run after the document, so that their font parses are not in
its peak.
"""
import json
import logging
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ["DATABASE_URL"] = f"sqlite:///{sys.argv[2]}"
os.environ["DEBUG"] = "0"
os.environ["SITE_URL"] = "https://catan.example.org"  # the QR codes' address
os.environ.pop("REDIS_URL", None)
os.environ.pop("REDIS_CACHE_URL", None)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "catan_tournaments.settings")

import django

django.setup()

RUNS, BASELINE_RUNS = 3, 7
PLAYERS = {"sheets": 200, "standings": 1000, "seating": 3000}


def build() -> None:
    from django.core.management import call_command
    from django.utils import timezone

    from championships.models import Tournament
    from results.models import RecordSheet, Score
    from scheduling.models import Game, Seat
    from tests.factories import make_admin, make_tournament
    from tests.scheduling.crowd import crowd, seat_in_rotation

    call_command("migrate", verbosity=0)
    admin = make_admin()
    for document, players in PLAYERS.items():
        tournament = make_tournament(slug=f"bench-{document}", games=3 if document == "standings" else 1)
        seat_in_rotation(tournament.stages.get(), crowd(tournament, players))
    standings = Tournament.objects.get(slug="bench-standings")
    now = timezone.now()
    for game in standings.games.all():  # every table signed off: the first seat wins with 10, the others 7, 5, 3
        seats = list(Seat.objects.filter(game=game).order_by("table_id", "position"))
        RecordSheet.objects.bulk_create({s.table_id: RecordSheet(table_id=s.table_id, version=1, signed_off_by=admin,
                                                                 status=RecordSheet.Status.SIGNED_OFF,
                                                                 signed_off_at=now) for s in seats}.values())
        sheets = {s.table_id: s for s in RecordSheet.objects.filter(table__game=game)}
        Score.objects.bulk_create(Score(sheet=sheets[s.table_id], seat=s, vp=(10, 7, 5, 3)[s.position - 1],
                                        winner=s.position == 1) for s in seats)
    Game.objects.filter(tournament=standings).update(status=Game.Status.FINISHED)
    Game.objects.filter(tournament__slug="bench-seating").update(status=Game.Status.PUBLISHED)


def _pages(data: bytes) -> int:
    from io import BytesIO

    from pypdf import PdfReader  # the bench's requirements include the tests'

    return len(PdfReader(BytesIO(data)).pages)


def peak_mb() -> float:
    with open("/proc/self/status") as status:
        return int(next(line.split()[1] for line in status if line.startswith("VmHWM:"))) / 1024


def cold_one_page(tournament) -> bytes:
    """A one-page PDF as before: the stylesheet and its fonts parsed for it."""
    from weasyprint import CSS, HTML
    from weasyprint.text.fonts import FontConfiguration

    from core.pdf import STYLESHEET, html_for

    fonts = FontConfiguration()
    css = CSS(filename=str(STYLESHEET), font_config=fonts)
    size = CSS(string="@page { size: A4; margin: 14mm 14mm 16mm; }")
    return HTML(string=html_for("print/base.html", {"tournament": tournament}),
                base_url=str(STYLESHEET.parent)).render(stylesheets=[css, size], font_config=fonts).write_pdf()


def measure(document: str) -> dict:
    from championships.models import Tournament
    from core.pdf import A4, render_pdf
    from printing.documents import game_pdf
    from ranking.printing import seating_pdf, standings_pdf
    from ranking.public.standings import public_standings

    tournament = Tournament.objects.get(slug=f"bench-{document}")
    game = tournament.games.order_by("number").first()
    layouts = {"sheets": lambda: game_pdf("record_sheets", tournament, game, A4),
               "standings": lambda: standings_pdf(tournament, A4),
               "seating": lambda: seating_pdf(tournament, game, A4)}

    def one_page() -> bytes:
        return render_pdf("print/base.html", {"tournament": tournament}, paper=A4)

    def cpu(layout) -> tuple[float, bytes]:
        start = time.process_time()
        data = layout()
        return time.process_time() - start, data

    one_page()
    if document == "standings":
        public_standings(tournament, per_page=None)
    at_rest = peak_mb()
    runs = [cpu(layouts[document]) for _ in range(RUNS)]
    peak = peak_mb()  # before the baseline, whose seven font parses would stay in the process's memory
    baseline = statistics.median(cpu(lambda: cold_one_page(tournament))[0] for _ in range(BASELINE_RUNS))
    warm = statistics.median(cpu(one_page)[0] for _ in range(BASELINE_RUNS))
    data = runs[-1][1]
    return {"cpu": statistics.median(spent for spent, _data in runs), "baseline": baseline, "one_page": warm,
            "peak_mb": peak, "rest_mb": at_rest, "pages": _pages(data), "kb": len(data) / 1024}


if __name__ == "__main__":
    logging.disable(logging.WARNING)
    if sys.argv[1] == "build":
        build()
    else:
        print(json.dumps(measure(sys.argv[3])))
