"""The stack under test, all on loopback and all of its own: a PostgreSQL database, a Redis server,
gunicorn with production settings, and (for chaos) a Celery worker.

Every process is started here and stopped here by its pid; the shared PostgreSQL server is only
asked to create, reset and drop the harness's own database, and the shared Redis (6379) is never used.
"""
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
PG_SERVER = "postgres://postgres@127.0.0.1:5432"
HOST = "127.0.0.1"


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def psql(sql: str, database: str = "postgres") -> str:
    """One statement on the shared server, as the trusted local superuser."""
    result = subprocess.run(["psql", "-h", HOST, "-U", "postgres", "-d", database, "-X", "-A", "-t", "-q",
                             "-v", "ON_ERROR_STOP=1", "-c", sql], capture_output=True, text=True, check=True)
    return result.stdout.strip()


class Stack:
    """Names, ports and the environment of one harness run (`name` picks the database and the folder)."""

    def __init__(self, name: str, http_port: int, redis_port: int, workers: int):
        self.name = name
        self.database = f"catan_{name}"
        self.http_port = http_port
        self.redis_port = redis_port
        self.workers = workers
        self.dir = Path(f"/tmp/catan_{name}")
        self.base_url = f"http://{HOST}:{http_port}"
        self.redis: subprocess.Popen | None = None
        self.gunicorn: subprocess.Popen | None = None
        self.celery: subprocess.Popen | None = None
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "catan_tournaments.settings",
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": HOST,
            "SITE_URL": f"https://{HOST}:{http_port}",  # as the clients present themselves (X-Forwarded-Proto)
            "DATABASE_URL": f"{PG_SERVER}/{self.database}",
            "REDIS_URL": f"redis://{HOST}:{redis_port}/0",
            "REDIS_CACHE_URL": f"redis://{HOST}:{redis_port}/1",  # the cache apart from the broker, as deployed
            "PROXY_COUNT": "1",  # the clients send X-Forwarded-For as the TLS proxy does: one address each
            "EMAIL_URL": "dummymail://",  # seating notices are built and "sent" by the worker; no mail server here
            "STATIC_ROOT": str(self.dir / "static"),
            "LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1",
        }

    # --- database -------------------------------------------------------------------------------
    def reset_database(self) -> None:
        psql(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
        psql(f'CREATE DATABASE "{self.database}"')

    def drop_database(self) -> None:
        psql(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')

    def terminate_app_connections(self) -> int:
        """`pg_terminate_backend` on every connection to this run's database (none other), but our own."""
        return len(psql(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            f"WHERE datname = '{self.database}' AND pid <> pg_backend_pid()", self.database).split())

    def manage(self, *args: str, quiet: bool = True) -> str:
        result = subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True, text=True)
        if result.returncode:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")
        return result.stdout

    def django_script(self, module: str, *args: str) -> dict:
        """Run `python -m reliability.<module>` with the app's settings; it prints one JSON object last."""
        result = subprocess.run([PYTHON, "-m", f"reliability.{module}", *args], cwd=ROOT, env=self.env,
                                capture_output=True, text=True)
        if result.returncode:
            raise RuntimeError(f"reliability.{module} failed:\n{result.stdout[-3000:]}\n{result.stderr[-5000:]}")
        return json.loads(result.stdout.strip().splitlines()[-1])

    def prepare(self) -> None:
        """A fresh folder and database, migrated, static files collected as a deployment would."""
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir.mkdir(parents=True)
        self.reset_database()
        self.manage("migrate", "--noinput")
        self.manage("collectstatic", "--noinput")

    # --- Redis ----------------------------------------------------------------------------------
    def start_redis(self) -> None:
        self.redis = subprocess.Popen(
            ["redis-server", "--bind", HOST, "--port", str(self.redis_port), "--save", "", "--appendonly", "no",
             "--dir", str(self.dir), "--loglevel", "warning"],
            stdout=self._log("redis.log"), stderr=subprocess.STDOUT)
        self._wait(lambda: self.redis_ping(), 10, "Redis")

    def redis_ping(self) -> bool:
        result = subprocess.run(["redis-cli", "-h", HOST, "-p", str(self.redis_port), "ping"],
                                capture_output=True, text=True, timeout=2)
        return result.stdout.strip() == "PONG"

    def stop_redis(self) -> None:
        if self.redis and self.redis.poll() is None:
            os.kill(self.redis.pid, signal.SIGCONT)  # a frozen server must be able to exit
        stop(self.redis)
        self.redis = None

    def signal_redis(self, sig: int) -> None:
        if self.redis is None:
            raise RuntimeError("Redis is not running")
        os.kill(self.redis.pid, sig)

    # --- gunicorn -------------------------------------------------------------------------------
    def start_gunicorn(self) -> None:
        """Production's command (Dockerfile: sync workers), on loopback; a worker that hangs 30 s is replaced."""
        self.gunicorn = subprocess.Popen(
            [str(Path(PYTHON).with_name("gunicorn")), "catan_tournaments.wsgi", "--bind", f"{HOST}:{self.http_port}",
             "--workers", str(self.workers), "--timeout", "30", "--graceful-timeout", "5", "--backlog", "2048",
             "--error-logfile", str(self.dir / "gunicorn.log"), *_no_control_socket()],
            cwd=ROOT, env=self.env, stdout=self._log("gunicorn.out"), stderr=subprocess.STDOUT)
        self._wait(lambda: self.health() is not None and len(self.worker_pids()) == self.workers, 60, "gunicorn")

    def worker_pids(self) -> list[int]:
        return children(self.gunicorn.pid) if self.gunicorn else []

    def server_cpu_seconds(self) -> float:
        """CPU time used so far by gunicorn's master and its live workers."""
        pids = [self.gunicorn.pid, *self.worker_pids()] if self.gunicorn else []
        return sum(cpu_seconds(pid) for pid in pids)

    def stop_gunicorn(self) -> None:
        stop(self.gunicorn)
        self.gunicorn = None

    def health(self) -> dict | None:
        try:
            with urllib.request.urlopen(f"{self.base_url}/healthz", timeout=3) as response:
                return json.load(response)
        except Exception:
            return None

    # --- Celery ---------------------------------------------------------------------------------
    def start_celery(self, concurrency: int = 1) -> None:
        """A worker with `concurrency` pool processes (docker-compose's runs Celery's default, one per core)."""
        log = self.dir / "celery.log"
        before = log.stat().st_size if log.exists() else 0  # a worker started again appends to the same log
        self.celery = subprocess.Popen(
            [str(Path(PYTHON).with_name("celery")), "-A", "catan_tournaments", "worker",
             "--concurrency", str(concurrency), "--pool", "prefork", "--loglevel", "INFO", "--without-gossip",
             "--without-mingle",
             "--hostname", f"{self.name}@%h"],
            cwd=ROOT, env=self.env, stdout=self._log("celery.log"), stderr=subprocess.STDOUT)
        self._wait(lambda: b"ready." in log.read_bytes()[before:], 60, "the Celery worker")

    def stop_celery(self) -> None:
        stop(self.celery)
        self.celery = None

    # --- all ------------------------------------------------------------------------------------
    def stop_all(self) -> list[str]:
        """Stop every process started here; never raises (the report must still be printed): what went wrong."""
        problems = []
        for what, step in (("Celery", self.stop_celery), ("gunicorn", self.stop_gunicorn), ("Redis", self.stop_redis)):
            try:
                step()
            except Exception as error:  # noqa: BLE001 - said in the report
                problems.append(f"stopping {what}: {type(error).__name__}: {error}")
        return problems

    def _log(self, name: str):
        """An append-only log file for a child process (the child keeps it open; ours is closed at exit)."""
        return open(self.dir / name, "ab")  # noqa: SIM115

    @staticmethod
    def _wait(ready, seconds: float, what: str) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                if ready():
                    return
            except Exception:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"{what} did not start within {seconds:.0f} s")


def _no_control_socket() -> list[str]:
    """Newer gunicorns open a control socket in the home folder, shared by every gunicorn there: not ours."""
    help_text = subprocess.run([str(Path(PYTHON).with_name("gunicorn")), "--help"], capture_output=True, text=True)
    return ["--no-control-socket"] if "--no-control-socket" in help_text.stdout else []


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process, from /proc (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """Direct child processes of `pid` (gunicorn's workers, Celery's pool processes)."""
    try:
        found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []
    return [int(p) for p in found]


def stop(process: subprocess.Popen | None) -> None:
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


def machine_note() -> str:
    load1, load5, _load15 = os.getloadavg()
    at = time.strftime("%H:%M UTC", time.gmtime())
    return f"{os.cpu_count()} cores, load average {load1:.2f} (1 min) {load5:.2f} (5 min) at {at}"
