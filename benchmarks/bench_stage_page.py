"""The organizer's stage page at 300, 1,000 and 3,000 players × 4 games: render time and bytes.

Run from anywhere: `python benchmarks/bench_stage_page.py`. Builds each stage in a throwaway SQLite
database (or `BENCH_DATABASE_URL`), signs an organizer in and times the full request through Django's
test client with production settings (DEBUG off). Each figure is the best of a few runs beside a trivial
baseline timed in the same run: the sign-in page, which renders the same base layout with one form.
The target is under 1 s and 500 KB at 3,000 players; the ratio is the figure to compare between runs.
"""
import logging
import time
from functools import partial

from django_setup import setup

setup("stage")

from django.core.management import call_command  # noqa: E402
from django.test import Client, override_settings  # noqa: E402

from tests.factories import make_official, make_tournament  # noqa: E402
from tests.scheduling.crowd import crowd, seat_in_rotation  # noqa: E402

SIZES, GAMES, RUNS = (300, 1000, 3000), 4, 5


def best_of(runs: int, fn) -> tuple[float, int]:
    times, size = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        response = fn()
        times.append(time.perf_counter() - start)
        assert response.status_code == 200, response.status_code
        size = len(response.content)
    return min(times), size


@override_settings(STORAGES={  # the static manifest exists only after collectstatic; the page is what we time
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
})
def main() -> None:
    logging.disable(logging.WARNING)  # sign-in notices on stderr would drown the figures
    call_command("migrate", verbosity=0)
    print(f"stage page, {GAMES} games, best of {RUNS} (baseline: the sign-in page)")
    print(f"{'players':>8} {'page s':>8} {'baseline s':>11} {'ratio':>7} {'bytes':>9}")
    for players in SIZES:
        tournament = make_tournament(slug=f"bench-{players}", games=GAMES, ruleset="cwc-2025")
        stage = tournament.stages.get()
        seat_in_rotation(stage, crowd(tournament, players))
        client = Client()
        client.force_login(make_official(tournament, "organizer"))
        path = f"/organize/{tournament.slug}/stages/{stage.pk}/"
        client.get(path, secure=True)  # warm: templates compiled, session read once
        page, size = best_of(RUNS, partial(client.get, path, secure=True))
        baseline, _size = best_of(4 * RUNS, partial(Client().get, "/accounts/login/", secure=True))
        print(f"{players:>8,} {page:>8.3f} {baseline:>11.4f} {page / baseline:>7.1f} {size:>9,}")


if __name__ == "__main__":
    main()
