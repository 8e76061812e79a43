"""The referee's record sheet: CPU seconds and queries per request (sheet page, save, signatures, sign-off).

Run from anywhere: `python benchmarks/bench_referee_sheet.py [--profile]`. Seeds the load harness's tournament
(reliability/seed.py: 80 players, 20 tables a game) in a throwaway SQLite database (or an empty
`BENCH_DATABASE_URL`), with Redis when `REDIS_URL` is set (background work is then queued, as deployed), and plays
every table of the first game through Django's test client, production settings (DEBUG off). Each figure is the
median process CPU time of that step over the tables, beside a trivial baseline timed in the same run (/healthz);
the ratio is the figure to compare between runs. `--profile` prints the top of cProfile for each step.
"""
import cProfile
import io
import json
import logging
import os
import pstats
import statistics
import sys
import time
from collections import defaultdict
from contextlib import redirect_stdout

from django_setup import setup

setup("referee", redis=bool(os.environ.get("REDIS_URL")))

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from reliability import seed as seeding  # noqa: E402

PROFILE = "--profile" in sys.argv


class Steps:
    """CPU seconds and query counts by step, and a profile by step when asked."""

    def __init__(self):
        self.cpu, self.queries = defaultdict(list), defaultdict(list)
        self.profiles: dict[str, cProfile.Profile] = {}

    def run(self, name: str, client: Client, path: str, data: dict | None = None, expect: int = 200):
        """GET `path`, or POST `data` to it, once."""
        def fn():
            if data is None:
                return client.get(path, secure=True)
            return client.post(path, data, secure=True)
        profile = self.profiles.setdefault(name, cProfile.Profile()) if PROFILE else None
        with CaptureQueriesContext(connection) as queries:
            start = time.process_time()
            if profile:
                profile.enable()
            response = fn()
            if profile:
                profile.disable()
            self.cpu[name].append(time.process_time() - start)
        assert response.status_code == expect, (name, response.status_code)
        self.queries[name].append(len(queries))
        return response


@override_settings(STORAGES={  # the static manifest exists only after collectstatic; the page is what we time
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
})
def main() -> None:
    logging.disable(logging.WARNING)
    call_command("migrate", verbosity=0)
    sys.argv = [sys.argv[0], "--played", "1"]  # seed.py's own arguments: one qualifier played
    seeding.public_paths = lambda *args: {}  # the spectators' pages are not timed here
    with redirect_stdout(io.StringIO()) as out:
        seeding.main()
    seed = json.loads(out.getvalue().strip().splitlines()[-1])
    game, slug = seed["games"][0], seed["tournaments"][0]
    steps = Steps()
    health = Client()
    for _ in range(3):
        health.get("/healthz", secure=True)
    referee = get_user_model().objects.get(username=seed["referees"][0][0])
    client = Client()
    client.force_login(referee)
    for table in game["tables"]:
        sheet = f"/referee/{slug}/tables/{table['id']}/"
        steps.run("sheet", client, sheet)
        scores = {f"vp_{seat['entry']}": str(vp) for seat, vp in zip(table["seats"], (10, 7, 5, 3))}
        steps.run("save scores", client, f"{sheet}scores/", {
            **scores, "winner": "", "start_time": "10:00", "end_time": "11:25", "base_version": "0"}, expect=302)
        steps.run("sheet (signing)", client, sheet)
        for seat in table["seats"]:
            steps.run("sign", client, f"{sheet}sign/", {
                "entry": str(seat["entry"]), "version": "1", "image": "", "method": "tap", "decision": ""}, expect=302)
            steps.run("sign → page", client, sheet)
        steps.run("sign off", client, f"{sheet}sign-off/", {"version": "1"}, expect=302)
        steps.run("sign off → page", client, sheet)
        steps.run("baseline /healthz", health, "/healthz")
    baseline = statistics.median(steps.cpu["baseline /healthz"])
    print(f"referee's sheet, {len(game['tables'])} tables; median CPU per request (baseline /healthz "
          f"{baseline * 1000:.2f} ms)")
    print(f"{'step':<20} {'cpu ms':>8} {'ratio':>7} {'queries':>8}")
    for name, times in steps.cpu.items():
        cpu = statistics.median(times)
        print(f"{name:<20} {cpu * 1000:>8.1f} {cpu / baseline:>7.1f} {max(steps.queries[name]):>8}")
    for name, profile in steps.profiles.items():
        text = io.StringIO()
        pstats.Stats(profile, stream=text).sort_stats("cumulative").print_stats(45)
        print(f"\n==== {name}\n{text.getvalue()}")


if __name__ == "__main__":
    main()
