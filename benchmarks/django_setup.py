"""Django for a benchmark script, set up before the script imports anything that needs it: the app's production
settings (DEBUG off) on a scratch SQLite database, or on `BENCH_DATABASE_URL` when a parent (bench_heavy.py,
bench_public_http.py) prepared a PostgreSQL one, without the shared Redis unless the script asks for it, and
with emails kept in memory."""
import os
import sys
import tempfile
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def setup(name: str, *, database: str | None = None, redis: bool = False) -> None:
    """`name` names the scratch database's folder; `database` overrides both it and `BENCH_DATABASE_URL`."""
    sys.path.insert(0, str(ROOT))
    os.environ["DATABASE_URL"] = database or os.environ.get(
        "BENCH_DATABASE_URL", f"sqlite:///{tempfile.mkdtemp(prefix=f'bench-{name}-')}/bench.sqlite3")
    os.environ["DEBUG"] = "0"
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ["SITE_URL"] = "http://testserver"  # the address the test client reaches, as a deployment's is
    os.environ["EMAIL_URL"] = "memorymail://"  # a benchmark sends no email (the seeded players' are not real)
    if not redis:
        os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "catan_tournaments.settings")
    warnings.filterwarnings("ignore", "No directory at", UserWarning)  # whitenoise: no collectstatic before a bench
    import django

    django.setup()
