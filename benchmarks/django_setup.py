"""Django for a benchmark script, set up before the script imports anything that needs it: the app's production
settings (DEBUG off) on a scratch SQLite database, or on `BENCH_DATABASE_URL` when a parent (bench_heavy.py,
bench_public_http.py) prepared a PostgreSQL one, and without the shared Redis unless the script asks for it."""
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def setup(name: str, *, database: str | None = None, redis: bool = False) -> None:
    """`name` names the scratch database's folder; `database` overrides both it and `BENCH_DATABASE_URL`."""
    sys.path.insert(0, str(ROOT))
    os.environ["DATABASE_URL"] = database or os.environ.get(
        "BENCH_DATABASE_URL", f"sqlite:///{tempfile.mkdtemp(prefix=f'bench-{name}-')}/bench.sqlite3")
    os.environ["DEBUG"] = "0"
    os.environ["ALLOWED_HOSTS"] = "testserver"
    if not redis:
        os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "catan_tournaments.settings")
    import django

    django.setup()
