"""The public pages at 200 and 3,000 players: requests per second next to /healthz, timed in the same run.

Run from anywhere: `python benchmarks/bench_public_pages.py`. Builds a tournament of 3 games (two signed off,
one published) in a throwaway SQLite database (or `BENCH_DATABASE_URL`) and times each page through Django's
test client with production settings (DEBUG off), one client after another: the median of a few runs, shown
as requests per second and as a share of /healthz's. "304" rows are a live poll that finds nothing new (the
browser sends the ETag back). Results are written in bulk, not through the services: the pages are timed.
"""
import logging
import statistics
import time

from django_setup import setup

setup("public")

from django.core.management import call_command  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.utils import timezone  # noqa: E402

from results.models import RecordSheet, Score  # noqa: E402
from scheduling.models import Game, Seat  # noqa: E402
from tests.factories import make_admin, make_tournament  # noqa: E402
from tests.scheduling.crowd import crowd, seat_in_rotation  # noqa: E402

SIZES, GAMES, RUNS = (200, 3000), 3, 15


def results(game: Game, user) -> None:
    """Every table of the game signed off: the first seat wins with 10, the others 7, 5, 3."""
    seats = list(Seat.objects.filter(game=game).order_by("table_id", "position"))
    now = timezone.now()
    sheets = {s.table_id: RecordSheet(table_id=s.table_id, status=RecordSheet.Status.SIGNED_OFF, version=1,
                                      signed_off_by=user, signed_off_at=now) for s in seats}
    RecordSheet.objects.bulk_create(sheets.values())
    sheets = {s.table_id: s for s in RecordSheet.objects.filter(table__game=game)}
    Score.objects.bulk_create(Score(sheet=sheets[s.table_id], seat=s, vp=(10, 7, 5, 3)[s.position - 1],
                                    winner=s.position == 1) for s in seats)
    game.status = Game.Status.FINISHED
    game.save()


def published(game: Game) -> None:
    seats = Seat.objects.filter(game=game)
    RecordSheet.objects.bulk_create(RecordSheet(table_id=t) for t in set(seats.values_list("table_id", flat=True)))
    game.status = Game.Status.PUBLISHED
    game.save()


def rate(client: Client, path: str, expect: int = 200, **headers) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        response = client.get(path, secure=True, **headers)
        times.append(time.perf_counter() - start)
        assert response.status_code == expect, response.status_code
    return 1 / statistics.median(times)


def build(players: int, admin) -> dict[str, str]:
    """A tournament of `players` with two games signed off and the third published: its public pages by name."""
    tournament = make_tournament(slug=f"bench-{players}", games=GAMES, status="running")
    stage = tournament.stages.get()
    entries = crowd(tournament, players)
    seat_in_rotation(stage, entries)
    games = list(tournament.games.order_by("number"))
    results(games[0], admin)
    results(games[1], admin)
    published(games[2])
    player = tournament.entries.order_by("pk").first().player_id
    slug = tournament.slug
    return {"overview": f"/t/{slug}/", "standings": f"/t/{slug}/standings/", "game": f"/t/{slug}/games/1/",
            "player": f"/t/{slug}/players/{player}/", "where": f"/t/{slug}/where/?q=00012",
            "version": f"/t/{slug}/version/"}


@override_settings(STORAGES={
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
})
def main() -> None:
    logging.disable(logging.WARNING)
    call_command("migrate", verbosity=0)
    admin = make_admin()
    print(f"public pages, {GAMES} games (2 signed off), median of {RUNS}, one client; share of /healthz")
    for players in SIZES:
        pages = build(players, admin)
        version = pages.pop("version")
        client = Client()
        for path in pages.values():
            client.get(path, secure=True)  # warm: templates compiled, standings cached
        healthz = rate(client, "/healthz")
        print(f"\n{players:,} players: /healthz {healthz:,.0f} requests/s")
        print(f"{'page':>16} {'req/s':>9} {'share':>7} {'KB':>7}")
        for name, path in pages.items():
            per_second = rate(client, path)
            size = len(client.get(path, secure=True).content) / 1024
            print(f"{name:>16} {per_second:>9,.0f} {per_second / healthz:>7.0%} {size:>7.0f}")
        for name, path in (("standings 304", pages["standings"]), ("version 304", version)):
            etag = client.get(path, secure=True).headers["ETag"]
            per_second = rate(client, path, 304, HTTP_IF_NONE_MATCH=etag)
            print(f"{name:>16} {per_second:>9,.0f} {per_second / healthz:>7.0%} {0:>7}")


if __name__ == "__main__":
    main()
