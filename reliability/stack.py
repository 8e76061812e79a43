"""The production stack on loopback, all of its own: nginx terminating TLS for `catan.test` (a certificate made at
start) in front of two gunicorn replicas, a PostgreSQL database, Redis as Celery's broker and a second Redis as the
cache, a Celery worker and beat, an SMTP server writing each message as an .eml file and a Web Push receiver.
`make load` and `make chaos` start it to drive it; `make stack` (run_stack.py) runs it in the foreground.

Every process is started here and stopped here by its pid; the shared PostgreSQL server is only asked to create,
reset and drop the stack's own database, and the shared Redis (6379) is never used.
"""
import functools
import json
import os
import secrets
import shutil
import ssl
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from . import prepared, processes, proxy, tls
from .processes import children, cpu_seconds

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
BIN = Path(PYTHON).parent
PG_SERVER = "postgres://postgres@127.0.0.1:5432"
HOST = "127.0.0.1"
SITE = "catan.test"


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def psql(sql: str, database: str = "postgres") -> str:
    """One statement on the shared server, as the trusted local superuser."""
    result = subprocess.run(["psql", "-h", HOST, "-U", "postgres", "-d", database, "-X", "-A", "-t", "-q",
                             "-v", "ON_ERROR_STOP=1", "-c", sql], capture_output=True, text=True, check=True)
    return result.stdout.strip()


class Stack:
    """Names, ports and the environment of one run (`name` picks the database and the folder). The site answers on
    `port` (nginx); replica i (from 1) on port + 10 i, the mail server on port + 30, the push receiver on port + 40;
    Celery's broker on `redis_port`, the cache's Redis on `cache_redis_port` (default redis_port + 2)."""

    def __init__(self, name: str, port: int, redis_port: int, workers: int, replicas: int = 2,
                 cache_redis_port: int | None = None):
        self.name, self.database = name, f"catan_{name}"
        self.port, self.redis_port = port, redis_port
        self.cache_redis_port = cache_redis_port or redis_port + 2
        self.replica_ports = [port + 10 * (i + 1) for i in range(replicas)]
        self.smtp_port, self.push_port = port + 30, port + 40
        self.workers_per_replica = workers
        self.dir = Path(f"/tmp/catan_{name}")
        self.mail_dir, self.push_dir = self.dir / "mail", self.dir / "push"
        self.site_url = f"https://{SITE}:{port}"
        self.base_url = f"https://{HOST}:{port}"
        """Where clients connect (nginx, by address); they send `site_host` as Host."""
        self.site_host = f"{SITE}:{port}"
        self.push_url = f"https://{HOST}:{self.push_port}/"
        """The push receiver, as a browser's subscription names its push service (by address: no DNS here)."""
        self.redis: subprocess.Popen | None = None
        self.cache_redis: subprocess.Popen | None = None
        self.replicas: dict[int, subprocess.Popen] = {}
        self.celery: subprocess.Popen | None = None
        self.beat: subprocess.Popen | None = None
        self.nginx: subprocess.Popen | None = None
        self.helpers: list[subprocess.Popen] = []
        self.certificates: tls.Certificates | None = None
        self.metrics_token = secrets.token_urlsafe(24)
        self.prepared: dict[str, str] = {}
        """How `prepare` came by the database and the static files (made or reused), for the log."""
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "catan_tournaments.settings",
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "SITE_URL": self.site_url,
            "ALLOWED_HOSTS": SITE,
            "CSRF_TRUSTED_ORIGINS": self.site_url,
            "DATABASE_URL": f"{PG_SERVER}/{self.database}",
            "REDIS_URL": f"redis://{HOST}:{redis_port}/0",
            "REDIS_CACHE_URL": f"redis://{HOST}:{self.cache_redis_port}/0",  # a Redis of its own, as deployed
            "PROXY_COUNT": "1",  # nginx appends each client's address to X-Forwarded-For
            "EMAIL_URL": f"smtp://{HOST}:{self.smtp_port}",
            "DEFAULT_FROM_EMAIL": f"tournaments@{SITE}",
            "METRICS_TOKEN": self.metrics_token,
            # the outbound guard's seam opens for the stack's own push receiver only (core/outbound.py); the guard
            # trusts its certificate through SSL_CERT_FILE (set by `prepare`: the system's CAs and the stack's)
            "OUTBOUND_LOCAL_HOSTS": f"{HOST}:{self.push_port}",
            "PROMETHEUS_MULTIPROC_DIR": str(self.dir / "metrics"),
            "LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1",
        }

    # --- database -------------------------------------------------------------------------------
    def reset_database(self) -> str:
        """The run's database, a copy of the template in the current migration state (made first if missing):
        how long the migrations took, or that they were reused."""
        def migrate(database: str) -> None:
            self.manage("migrate", "--noinput", env={"DATABASE_URL": f"{PG_SERVER}/{database}"})

        started = time.monotonic()
        template, migrated = prepared.template_database(psql, migrate)
        psql(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
        psql(f'CREATE DATABASE "{self.database}" TEMPLATE "{template}"')
        return f"migrated in {time.monotonic() - started:.0f} s" if migrated else "cloned from the migrated template"

    def drop_database(self) -> None:
        psql(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')

    def terminate_app_connections(self) -> int:
        """`pg_terminate_backend` on every connection to this run's database (none other), but our own."""
        return len(psql(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            f"WHERE datname = '{self.database}' AND pid <> pg_backend_pid()", self.database).split())

    def manage(self, *args: str, env: dict[str, str] | None = None) -> str:
        result = subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env={**self.env, **(env or {})},
                                capture_output=True, text=True)
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
        """A fresh folder; the database cloned from the template migrated to the current state, the static files
        collected for the current state (each made first if missing, reliability/prepared.py), the certificates and
        the VAPID keys made: all at once, each waiting for a different resource."""
        shutil.rmtree(self.dir, ignore_errors=True)
        for folder in (self.dir, self.mail_dir, self.push_dir, self.dir / "metrics"):
            folder.mkdir(parents=True)
        with ThreadPoolExecutor(3) as pool:
            database, static, keys = (pool.submit(self.reset_database), pool.submit(self._static_root),
                                      pool.submit(self.manage, "make_vapid_keys"))
            self.certificates = tls.make(self.dir / "tls", [SITE])
            self.env["SSL_CERT_FILE"] = str(self.certificates.trusted)
            self.prepared = {"database": database.result(), "static files": static.result()}
            for line in keys.result().splitlines():
                name, _, value = line.partition("=")
                self.env[name] = value

    def _static_root(self) -> str:
        def collect(folder: Path) -> None:
            self.manage("collectstatic", "--noinput", env={"STATIC_ROOT": str(folder)})

        started = time.monotonic()
        folder, collected = prepared.static_root(collect)
        self.env["STATIC_ROOT"] = str(folder)
        return f"collected in {time.monotonic() - started:.0f} s" if collected else "reused"

    # --- Redis ----------------------------------------------------------------------------------
    def _redis(self, port: int, *options: str) -> subprocess.Popen:
        process = processes.start(["redis-server", "--bind", HOST, "--port", str(port), "--save", "",
                                   "--appendonly", "no", "--dir", str(self.dir), "--loglevel", "warning", *options],
                                  self._log(f"redis-{port}.log"))
        self._wait(lambda: redis_ping(port), 10, f"Redis on {port}")
        return process

    def start_redis(self) -> None:
        """The broker (a queued job is never evicted) and the cache (bounded, least recently used keys out)."""
        if self.redis is None or self.redis.poll() is not None:
            self.redis = self._redis(self.redis_port, "--maxmemory-policy", "noeviction")
        if self.cache_redis is None or self.cache_redis.poll() is not None:
            self.cache_redis = self._redis(self.cache_redis_port, "--maxmemory", "256mb",
                                           "--maxmemory-policy", "allkeys-lru")

    def stop_redis(self) -> None:
        """Both Redis servers stopped (chaos: "Redis stopped" takes away the cache and the broker at once)."""
        for process in (self.redis, self.cache_redis):
            processes.stop(process)
        self.redis = self.cache_redis = None

    def signal_redis(self, sig: int) -> None:
        if self.redis is None or self.cache_redis is None:
            raise RuntimeError("Redis is not running")
        for process in (self.redis, self.cache_redis):
            os.kill(process.pid, sig)

    # --- gunicorn replicas ----------------------------------------------------------------------
    @property
    def workers(self) -> int:
        """Web workers the replicas should have together."""
        return self.workers_per_replica * len(self.replica_ports)

    def start_replica(self, number: int) -> None:
        """Replica `number` (1, 2, …): production's command (Dockerfile: sync workers), on loopback behind nginx;
        it names itself `web-<number>` in /healthz. A worker that hangs 30 s is replaced."""
        self._launch_replica(number)
        self._wait(lambda: self._replica_ready(number), 60, f"replica web-{number}")

    def _launch_replica(self, number: int) -> None:
        port = self.replica_ports[number - 1]
        env = {**self.env, "INSTANCE_NAME": f"web-{number}"}
        self.replicas[number] = processes.start(
            [str(BIN / "gunicorn"), "catan_tournaments.wsgi", "--bind", f"{HOST}:{port}",
             "--workers", str(self.workers_per_replica), "--timeout", "30", "--graceful-timeout", "5",
             "--backlog", "2048", "--error-logfile", str(self.dir / f"gunicorn-{number}.log"), *_no_control_socket()],
            self._log(f"gunicorn-{number}.out"), cwd=ROOT, env=env)

    def _replica_ready(self, number: int) -> bool:
        return self.replica_live(number) and len(children(self.replicas[number].pid)) == self.workers_per_replica

    def start_gunicorn(self) -> None:
        """Every replica at once (each imports the app on a core of its own, if there is one)."""
        for number in range(1, len(self.replica_ports) + 1):
            self._launch_replica(number)
        for number in range(1, len(self.replica_ports) + 1):
            self._wait(lambda number=number: self._replica_ready(number), 60, f"replica web-{number}")

    def replica_live(self, number: int) -> bool:
        request = urllib.request.Request(f"http://{HOST}:{self.replica_ports[number - 1]}/livez",
                                         headers={"Host": SITE, "X-Forwarded-Proto": "https"})
        try:
            with urllib.request.urlopen(request, timeout=3) as response:
                return json.load(response).get("instance") == f"web-{number}"
        except Exception:
            return False

    def stop_replica(self, number: int) -> None:
        processes.stop(self.replicas.pop(number))

    def kill_replica(self, number: int) -> list[int]:
        """SIGKILL to the replica's master and workers at once, as when its machine or container dies."""
        process = self.replicas.pop(number)
        pids = [process.pid, *children(process.pid)]
        processes.kill(pids)
        process.wait(5)
        return pids

    def worker_pids(self) -> list[int]:
        return [pid for process in self.replicas.values() for pid in children(process.pid)]

    def server_cpu_seconds(self) -> float:
        """CPU time used so far by the replicas' masters and their live workers."""
        pids = [*(process.pid for process in self.replicas.values()), *self.worker_pids()]
        return sum(cpu_seconds(pid) for pid in pids)

    def stop_gunicorn(self) -> None:
        for number in list(self.replicas):
            processes.stop(self.replicas.pop(number))

    # --- nginx, mail, push ----------------------------------------------------------------------
    def start_proxy(self) -> None:
        assert self.certificates is not None, "prepare() makes the certificates"
        folder = self.dir / "nginx"
        config = proxy.configure(folder, self.port, SITE, self.replica_ports, self.certificates.certificate,
                                 self.certificates.key)
        self.nginx = proxy.start(folder, config, self._log("nginx.out"))
        self._wait(lambda: (self.health() or {}).get("database") == "ok", 30, "nginx")

    def start_mail_and_push(self) -> None:
        assert self.certificates is not None, "prepare() makes the certificates"
        self.helpers = [
            processes.start([PYTHON, "-m", "reliability.mailbox", str(self.mail_dir), str(self.smtp_port)],
                            self._log("mailbox.log"), cwd=ROOT),
            processes.start([PYTHON, "-m", "reliability.push_receiver", str(self.push_dir), str(self.push_port),
                             str(self.certificates.certificate), str(self.certificates.key)],
                            self._log("push.log"), cwd=ROOT)]
        for what, name in (("the mail server", "mailbox.log"), ("the push receiver", "push.log")):
            self._wait(lambda name=name: b"into" in (self.dir / name).read_bytes(), 20, what)

    def write_env(self) -> Path:
        """What a process beside the stack (a browser test, a scraper) needs, as JSON, readable by its owner only:
        the settings shared with the replicas, the metrics token, the CA and Chromium's flags."""
        assert self.certificates is not None
        path = self.dir / "env.json"
        path.touch(mode=0o600)
        path.write_text(json.dumps({
            "env": {name: self.env[name] for name in STACK_ENV}, "site_url": self.site_url, "mail": str(self.mail_dir),
            "push": str(self.push_dir), "push_url": self.push_url,
            "smtp_port": self.smtp_port, "ca": str(self.certificates.ca), "spki": self.certificates.spki,
            "chromium": [f"--host-resolver-rules=MAP {SITE} {HOST}",
                         f"--ignore-certificate-errors-spki-list={self.certificates.spki}"]}))
        return path

    def https_context(self) -> ssl.SSLContext:
        """A client's TLS settings that trust the stack's CA alone."""
        assert self.certificates is not None
        return ssl.create_default_context(cafile=str(self.certificates.ca))

    def health(self) -> dict | None:
        """/healthz through nginx, over TLS checked against the stack's CA."""
        request = urllib.request.Request(f"{self.base_url}/healthz", headers={"Host": f"{SITE}:{self.port}"})
        try:
            with urllib.request.urlopen(request, timeout=3, context=self.https_context()) as response:
                return json.load(response)
        except Exception:
            return None

    # --- Celery ---------------------------------------------------------------------------------
    def start_celery(self, concurrency: int = 1) -> None:
        """A worker with `concurrency` pool processes (docker-compose's runs Celery's default, one per core)."""
        self._wait(self._launch_celery(concurrency), 60, "the Celery worker")

    def _launch_celery(self, concurrency: int) -> Callable[[], bool]:
        """The worker started; whether it is ready yet."""
        log = self.dir / "celery.log"
        before = log.stat().st_size if log.exists() else 0  # a worker started again appends to the same log
        self.celery = processes.start(
            [str(BIN / "celery"), "-A", "catan_tournaments", "worker", "--concurrency", str(concurrency),
             "--pool", "prefork", "--loglevel", "INFO", "--without-gossip", "--without-mingle",
             "--hostname", f"{self.name}@%h"],
            self._log("celery.log"), cwd=ROOT, env={**self.env, "INSTANCE_NAME": "worker"})
        return lambda: b"ready." in log.read_bytes()[before:]

    def start_beat(self) -> None:
        self.beat = processes.start(
            [str(BIN / "celery"), "-A", "catan_tournaments", "beat", "--loglevel", "INFO",
             "--schedule", str(self.dir / "celerybeat-schedule")],
            self._log("beat.log"), cwd=ROOT, env={**self.env, "INSTANCE_NAME": "beat"})

    def stop_celery(self) -> None:
        processes.stop(self.celery)
        self.celery = None

    # --- all ------------------------------------------------------------------------------------
    def start_all(self, celery_concurrency: int = 1, beat: bool = True) -> None:
        """Everything: the services the app needs first, then the replicas, the worker and beat all at once (their
        start is importing the app), then the proxy, which waits for a replica to find the database ready."""
        self.start_redis()
        self.start_mail_and_push()
        celery_ready = self._launch_celery(celery_concurrency)
        if beat:
            self.start_beat()
        self.start_gunicorn()
        self._wait(celery_ready, 60, "the Celery worker")
        self.start_proxy()

    def started(self) -> list[subprocess.Popen]:
        return [p for p in (self.nginx, self.beat, self.celery, *self.replicas.values(), *self.helpers,
                            self.redis, self.cache_redis) if p is not None]

    def stop_all(self) -> list[str]:
        """Stop every process started here, the proxy first, then the others at once (a replica's graceful stop
        takes seconds); never raises (the report must still be printed): what went wrong."""
        def stop(process: subprocess.Popen) -> str | None:
            try:
                processes.stop(process)
            except Exception as error:  # said in the report
                return f"stopping process {process.pid}: {type(error).__name__}: {error}"
            return None

        others = [process for process in self.started() if process is not self.nginx]
        problems = [stop(self.nginx)] if self.nginx is not None else []
        if others:
            with ThreadPoolExecutor(len(others)) as pool:
                problems += pool.map(stop, others)
        self.nginx = self.beat = self.celery = self.redis = self.cache_redis = None
        self.replicas, self.helpers = {}, []
        return [problem for problem in problems if problem]

    def _log(self, name: str):
        """An append-only log file for a child process (the child keeps it open; ours is closed at exit)."""
        return open(self.dir / name, "ab")

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


def redis_ping(port: int) -> bool:
    result = subprocess.run(["redis-cli", "-h", HOST, "-p", str(port), "ping"], capture_output=True, text=True,
                            timeout=2)
    return result.stdout.strip() == "PONG"


@functools.cache
def _no_control_socket() -> list[str]:
    """Newer gunicorns open a control socket in the home folder, shared by every gunicorn there: not ours."""
    help_text = subprocess.run([str(BIN / "gunicorn"), "--help"], capture_output=True, text=True)
    return ["--no-control-socket"] if "--no-control-socket" in help_text.stdout else []


def machine_note() -> str:
    load1, load5, _load15 = os.getloadavg()
    at = time.strftime("%H:%M UTC", time.gmtime())
    return f"{os.cpu_count()} cores, load average {load1:.2f} (1 min) {load5:.2f} (5 min) at {at}"


STACK_ENV = ("DATABASE_URL", "REDIS_URL", "REDIS_CACHE_URL", "EMAIL_URL", "SITE_URL", "ALLOWED_HOSTS",
             "CSRF_TRUSTED_ORIGINS", "DEFAULT_FROM_EMAIL", "METRICS_TOKEN", "WEBPUSH_VAPID_PUBLIC_KEY",
             "WEBPUSH_VAPID_PRIVATE_KEY", "PROXY_COUNT")
"""What a process beside the stack (the browser tests) needs to be one more of its replicas."""

