"""Settings come from the environment; each case runs in a fresh interpreter."""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROBE = (
    "import json, django; django.setup(); from django.conf import settings as s; "
    "print(json.dumps({'cache': s.CACHES['default']['BACKEND'], 'cache_at': s.CACHES['default'].get('LOCATION'), "
    "'eager': s.CELERY_TASK_ALWAYS_EAGER, 'test_db': s.DATABASES['default'].get('TEST', {}).get('NAME'), "
    "'broker': s.CELERY_BROKER_URL, 'db': s.DATABASES['default']['ENGINE'], 'ssl': s.SECURE_SSL_REDIRECT, "
    "'hsts': s.SECURE_HSTS_SECONDS, 'cookies': s.SESSION_COOKIE_SECURE}))"
)


CONFIGURATION = {"REDIS_URL", "REDIS_CACHE_URL", "DATABASE_URL", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS",
                 "CSRF_TRUSTED_ORIGINS", "SITE_URL", "EMAIL_URL", "WEBPUSH_VAPID_PUBLIC_KEY",
                 "WEBPUSH_VAPID_PRIVATE_KEY", "CONN_MAX_AGE", "SENTRY_DSN", "OUTBOUND_LOCAL_ALLOWED",
                 "OUTBOUND_LOCAL_HOSTS",
                 "DJANGO_ALLOW_ASYNC_UNSAFE"}  # the browser tests set the last one


def clean_env(**env) -> dict[str, str]:
    """This process's environment without any of the project's configuration, plus `env`."""
    return {**{k: v for k, v in os.environ.items() if k not in CONFIGURATION}, **env}


def settings_with(**env):
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True,
        env=clean_env(DJANGO_SETTINGS_MODULE="catan_tournaments.settings", **env),
    )
    return json.loads(result.stdout)


def test_without_redis_tasks_run_eagerly_and_cache_is_local_memory():
    values = settings_with()
    assert values["cache"] == "django.core.cache.backends.locmem.LocMemCache"
    assert values["eager"] is True
    assert values["db"] == "django_prometheus.db.backends.sqlite3"  # Django's, its queries counted for /metrics


def test_with_redis_url_the_cache_and_broker_use_redis():
    values = settings_with(REDIS_URL="redis://127.0.0.1:6379/3")
    assert values["cache"] == "core.cache.FailFastRedisCache"  # Django's RedisCache, skipping Redis after a failure
    assert values["eager"] is False and values["broker"] == "redis://127.0.0.1:6379/3"


def test_the_cache_shares_redis_url_unless_it_has_a_redis_of_its_own():
    """docker-compose.yml gives the cache a bounded Redis that evicts; Celery's queued jobs stay on the other one."""
    shared = settings_with(REDIS_URL="redis://broker:6379/0")
    assert shared["cache_at"] == "redis://broker:6379/0"
    apart = settings_with(REDIS_URL="redis://broker:6379/0", REDIS_CACHE_URL="redis://cache:6379/0")
    assert apart["cache"] == "core.cache.FailFastRedisCache" and apart["cache_at"] == "redis://cache:6379/0"
    assert apart["broker"] == "redis://broker:6379/0" and apart["eager"] is False


def test_two_test_runs_never_share_a_sqlite_test_database():
    """The test database was one fixed file: a second run deleted and recreated it under the first one's feet."""
    first, second = settings_with()["test_db"], settings_with()["test_db"]
    assert first != second
    assert Path(first).parent == Path(second).parent == Path(tempfile.gettempdir())  # never in the work tree


def test_the_next_run_removes_the_sqlite_test_database_of_a_killed_run(tmp_path):
    from tests.conftest import forget_test_databases_of_killed_runs

    killed = tmp_path / Path(settings_with()["test_db"]).name  # that interpreter has ended, like a killed run
    running = tmp_path / f"catan-test-{os.getpid()}.sqlite3"  # this run's
    killed.touch()
    running.touch()
    forget_test_databases_of_killed_runs(tmp_path)
    assert not killed.exists() and running.exists()


SENTRY_PROBE = (
    "import json, django; django.setup(); import sentry_sdk; c = sentry_sdk.get_client(); "
    "print(json.dumps({'active': c.is_active(), 'dsn': c.dsn, 'integrations': sorted(c.integrations), "
    "'pii': c.options['send_default_pii'], 'body': c.options['max_request_body_size'], "
    "'locals': c.options['include_local_variables'], "
    "'before_send': getattr(c.options['before_send'], '__qualname__', None)}))"
)


def sentry_with(**env) -> dict:
    result = subprocess.run([sys.executable, "-c", SENTRY_PROBE], cwd=ROOT, capture_output=True, text=True, check=True,
                            env=clean_env(DJANGO_SETTINGS_MODULE="catan_tournaments.settings", **env))
    return json.loads(result.stdout)


def test_errors_go_to_sentry_only_when_a_dsn_is_set_and_without_personal_data():
    assert sentry_with()["active"] is False
    dsn = "https://public@sentry.invalid/1"  # nothing is sent: no error happens in the probe
    reporting = sentry_with(SENTRY_DSN=dsn)
    assert reporting["active"] is True and reporting["dsn"] == dsn
    assert {"django", "celery", "logging"} <= set(reporting["integrations"])
    assert (reporting["pii"], reporting["body"], reporting["locals"]) == (False, "never", False)
    assert reporting["before_send"] == "scrub_event"  # the players' tokens redacted (core/logging.py)


def test_an_unhandled_error_in_a_request_is_reported_to_sentry():
    """A view that raises, served by the WSGI application gunicorn runs, ends as one event at the transport (a
    stand-in: no network), with the request's address but not its session cookie."""
    probe = """
import json
from wsgiref.util import setup_testing_defaults
from catan_tournaments.wsgi import application
import sentry_sdk
from sentry_sdk.transport import Transport
from django.urls import path
import catan_tournaments.urls as urls

events = []
class Recording(Transport):
    def capture_envelope(self, envelope):
        events.extend(item.payload.json for item in envelope.items if item.type == "event")
sentry_sdk.get_client().transport = Recording()

def broken(request):
    raise ZeroDivisionError("a bug")
urls.urlpatterns.append(path("broken-for-sentry/", broken))
environ = {"PATH_INFO": "/broken-for-sentry/", "HTTP_HOST": "testserver", "HTTP_COOKIE": "sessionid=secret"}
setup_testing_defaults(environ)
statuses = []
b"".join(application(environ, lambda status, headers, exc_info=None: statuses.append(status)))
print(json.dumps({"status": statuses, "events": events}))
"""
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True,
                            env=clean_env(DJANGO_SETTINGS_MODULE="catan_tournaments.settings", DEBUG="1",
                                          ALLOWED_HOSTS="testserver", SENTRY_DSN="https://public@sentry.invalid/1"))
    report = json.loads(result.stdout)
    assert report["status"] == ["500 Internal Server Error"]
    [event] = report["events"]
    assert event["exception"]["values"][-1]["type"] == "ZeroDivisionError"
    assert event["request"]["url"] == "http://testserver/broken-for-sentry/"
    assert "secret" not in json.dumps(event)


def test_database_url_selects_postgresql():
    engine = settings_with(DATABASE_URL="postgres://u@127.0.0.1:5432/x")["db"]
    assert engine == "django_prometheus.db.backends.postgresql"


def test_postgresql_connections_persist_with_health_checks_sqlite_ones_do_not():
    probe = "import django; django.setup(); from django.db import connection as c; " \
            "print(c.settings_dict['CONN_MAX_AGE'], c.settings_dict['CONN_HEALTH_CHECKS'])"

    def conn(**env):
        return subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True,
                              env=clean_env(DJANGO_SETTINGS_MODULE="catan_tournaments.settings", **env)).stdout.split()

    assert conn(DATABASE_URL="postgres://u@127.0.0.1:5432/x") == ["60", "True"]
    assert conn(DATABASE_URL="postgres://u@127.0.0.1:5432/x", CONN_MAX_AGE="5") == ["5", "True"]
    assert conn() == ["0", "True"]


def test_debug_off_is_secure_by_default():
    values = settings_with(DEBUG="0")
    assert values["ssl"] is True and values["hsts"] >= 31536000 and values["cookies"] is True


def test_deploy_check_is_clean_with_the_documented_variables():
    env = clean_env(DEBUG="0", SECRET_KEY="a-long-random-production-secret-" + "x9Q2" * 10,
                    ALLOWED_HOSTS="catan.example", SITE_URL="https://catan.example",
                    CSRF_TRUSTED_ORIGINS="https://catan.example")
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                            cwd=ROOT, capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_deploy_check_refuses_the_outbound_guards_test_seam_with_debug_off():
    """Either setting lets webhooks and Web Push reach the server's own network (core/outbound.py): a stack on
    loopback may set one, a deployment may not."""
    production = {"DEBUG": "0", "SECRET_KEY": "a-long-random-production-secret-" + "x9Q2" * 10,
                  "ALLOWED_HOSTS": "catan.example"}
    for seam in ({"OUTBOUND_LOCAL_HOSTS": "push.catan.test:8443"}, {"OUTBOUND_LOCAL_ALLOWED": "1"}):
        result = subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=ROOT, capture_output=True,
                                text=True, env=clean_env(**production, **seam))
        assert result.returncode == 1 and "catan.E006" in result.stderr, (seam, result.stderr)
        debugging = subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=ROOT, capture_output=True,
                                   text=True, env=clean_env(**{**production, **seam, "DEBUG": "1"}))
        assert "catan.E006" not in debugging.stderr + debugging.stdout


def test_web_entry_point_refuses_the_development_key_when_debug_is_off():
    result = subprocess.run([sys.executable, "-c", "import catan_tournaments.wsgi"], cwd=ROOT,
                            capture_output=True, text=True, env=clean_env(DEBUG="0"))
    assert result.returncode != 0 and "SECRET_KEY must be set" in result.stderr


SQLITE_WRITERS = (
    "import json, threading, time, django; django.setup()\n"
    "from django.db import connection, transaction\n"
    "with connection.cursor() as c: c.execute('create table t (x integer)')\n"
    "errors = []\n"
    "def write(n):\n"
    "    try:\n"
    "        with transaction.atomic(), connection.cursor() as c:\n"
    "            c.execute('select count(*) from t'); time.sleep(0.3); c.execute('insert into t values (%s)', [n])\n"
    "    except Exception as error: errors.append(str(error))\n"
    "    finally: connection.close()\n"
    "threads = [threading.Thread(target=write, args=(n,)) for n in (1, 2)]\n"
    "[t.start() for t in threads]; [t.join() for t in threads]\n"
    "with connection.cursor() as c: c.execute('select count(*) from t'); rows = c.fetchone()[0]\n"
    "print(json.dumps({'errors': errors, 'rows': rows}))\n"
)


def test_on_sqlite_two_threads_that_read_then_write_wait_their_turn(tmp_path):
    """Without a worker, background threads write beside the requests: two transactions that both read before
    writing deadlocked in SQLite, and one failed at once with "database is locked" (bench_referee_sheet.py)."""
    result = subprocess.run(
        [sys.executable, "-c", SQLITE_WRITERS], cwd=ROOT, capture_output=True, text=True, check=True,
        env=clean_env(DJANGO_SETTINGS_MODULE="catan_tournaments.settings",
                      DATABASE_URL=f"sqlite:///{tmp_path / 'writers.sqlite3'}"))
    assert json.loads(result.stdout) == {"errors": [], "rows": 2}
