"""The public pages' and PDFs' figures for `bench_heavy.py` (run by it in a child process, not by `make bench`).

With the app's settings on a scratch PostgreSQL database and a Redis of the parent's (`BENCH_DATABASE_URL`,
`REDIS_URL`), through Django's full request stack (test client, production settings): a 200-player tournament
for the PDFs and a 3,000-player one for the pages, each of 3 games (two signed off, the third published).
Figures are this process's CPU seconds per request (`time.process_time`), medians, beside /healthz's measured
in the same run; prints one JSON object. A sign-off goes through the services, so its signals, the coalesced
refresh and its job run as in production; the job runs here, where the Celery worker would run it, and its
CPU is reported apart: it is not the reader's.
"""
import gc
import json
import logging
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from django_setup import setup

setup("pages", database=os.environ["BENCH_DATABASE_URL"], redis=True)

import bench_public_pages as pages  # noqa: E402
from django.test import Client, override_settings  # noqa: E402

from championships import links  # noqa: E402
from championships.models import Player, Tournament  # noqa: E402
from ranking import refresh  # noqa: E402
from results.models import Score  # noqa: E402
from tests.factories import make_admin, make_official, play  # noqa: E402

HEALTHZ_RUNS, AGAIN_RUNS, FIRST_RUNS = 60, 5, 3
ENCODINGS = {"HTTP_ACCEPT_ENCODING": "br, gzip"}


def cpu(client: Client, path: str, **headers) -> tuple[float, object]:
    start = time.process_time()
    response = client.get(path, secure=True, **headers)
    spent = time.process_time() - start
    assert response.status_code == 200, (path, response.status_code)
    return spent, response


def median_cpu(client: Client, path: str, runs: int, **headers) -> float:
    return statistics.median(cpu(client, path, **headers)[0] for _ in range(runs))


def sign_off_next(tournament, referee, game_number: int) -> list[int]:
    """One more table of the game signed off through the services (its signals and refresh, as in production);
    its players' ids."""
    table = (tournament.games.get(number=game_number).tables.filter(sheet__status="draft").order_by("number")
             .first())
    seats = list(table.seats.order_by("position"))
    Score.objects.bulk_create(Score(sheet=table.sheet, seat=seat) for seat in seats)  # as publishing does
    play(table, [10, 7, 5, 3][:len(seats)], referee)
    return [seat.entry.player_id for seat in seats]


def run_refresh(tournament) -> dict:
    """What the Celery worker does after a sign-off: CPU and wall seconds of the job, and wall seconds until it
    announced the new version. Its garbage is collected before the reader comes: in production the job runs in
    the worker's process, and a collection of its objects must not be counted as the reader's."""
    announced = []
    real = refresh.announce_version
    refresh.announce_version = lambda *args: (real(*args), announced.append(time.perf_counter()))
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    try:
        refresh.run_refresh(tournament.pk)
    finally:
        refresh.announce_version = real
    spent = {"cpu": time.process_time() - cpu_start, "wall": time.perf_counter() - wall_start,
             "announced": announced[0] - wall_start}
    gc.collect()
    return spent


@override_settings(STORAGES={
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
})
def main() -> None:
    logging.disable(logging.WARNING)
    admin = make_admin()
    small, big = pages.build(200, admin), pages.build(3000, admin)
    small_slug, big_slug = small["standings"].split("/")[2], big["standings"].split("/")[2]
    client = Client()  # one handler (its middleware loaded once, as in a server process), never signed in
    warm = f"/me/{links.issue(Player.objects.order_by('pk').first())}/"  # a private page, as a player opens it
    for path in [*small.values(), *big.values(), "/healthz", warm]:
        client.get(path, secure=True)  # templates compiled, fonts and modules loaded
    healthz = median_cpu(client, "/healthz", HEALTHZ_RUNS)

    pdfs = {}
    for name, path in (("standings.pdf", f"/t/{small_slug}/standings.pdf"),
                       ("seating.pdf", f"/t/{small_slug}/games/3/seating.pdf")):
        first, _ = cpu(client, path)
        pdfs[name] = {"first": first, "again": median_cpu(client, path, AGAIN_RUNS)}

    tournament = Tournament.objects.get(slug=big_slug)
    referee = make_official(tournament)
    first_reader, jobs = {}, []
    for name in ("standings", "projector", "player", "other player", "private page"):
        spent = []
        for _ in range(FIRST_RUNS):
            played = sign_off_next(tournament, referee, 3)
            token = links.issue(Player.objects.get(pk=played[1]))  # the link they were emailed
            jobs.append(run_refresh(tournament))
            other = tournament.entries.exclude(player_id__in=played).order_by("?").first().player_id
            path = {"standings": big["standings"], "projector": f"/t/{big_slug}/screen/",
                    "player": f"/t/{big_slug}/players/{played[0]}/",
                    "other player": f"/t/{big_slug}/players/{other}/", "private page": f"/me/{token}/"}[name]
            spent.append(cpu(client, path, **ENCODINGS)[0])
        first_reader[name] = statistics.median(spent)

    wire = {}
    for name, path in (("projector", f"/t/{big_slug}/screen/"), ("standings", big["standings"]),
                       ("standings.csv", f"/t/{big_slug}/standings.csv"),
                       ("api standings", f"/api/tournaments/{big_slug}/standings/")):
        raw = cpu(client, path)[1]
        packed = cpu(client, path, **ENCODINGS)[1]
        wire[name] = {"raw": len(raw.content), "wire": len(packed.content),
                      "encoding": packed.headers.get("Content-Encoding", ""),
                      "type": packed.headers["Content-Type"].split(";")[0]}

    print(json.dumps({"healthz": healthz, "pdfs": pdfs, "first_reader": first_reader, "jobs": jobs,
                      "wire": wire}))


if __name__ == "__main__":
    main()
