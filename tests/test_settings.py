"""Settings come from the environment; each case runs in a fresh interpreter."""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROBE = (
    "import json, django; django.setup(); from django.conf import settings as s; "
    "print(json.dumps({'cache': s.CACHES['default']['BACKEND'], 'eager': s.CELERY_TASK_ALWAYS_EAGER, "
    "'broker': s.CELERY_BROKER_URL, 'db': s.DATABASES['default']['ENGINE'], 'ssl': s.SECURE_SSL_REDIRECT, "
    "'hsts': s.SECURE_HSTS_SECONDS, 'cookies': s.SESSION_COOKIE_SECURE}))"
)


CONFIGURATION = {"REDIS_URL", "DATABASE_URL", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "CONN_MAX_AGE",
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
    assert values["db"] == "django.db.backends.sqlite3"


def test_with_redis_url_the_cache_and_broker_use_redis():
    values = settings_with(REDIS_URL="redis://127.0.0.1:6379/3")
    assert values["cache"] == "core.cache.FailFastRedisCache"  # Django's RedisCache, skipping Redis after a failure
    assert values["eager"] is False and values["broker"] == "redis://127.0.0.1:6379/3"


def test_database_url_selects_postgresql():
    assert settings_with(DATABASE_URL="postgres://u@127.0.0.1:5432/x")["db"] == "django.db.backends.postgresql"


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
                    ALLOWED_HOSTS="catan.example")
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                            cwd=ROOT, capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_web_entry_point_refuses_the_development_key_when_debug_is_off():
    result = subprocess.run([sys.executable, "-c", "import catan_tournaments.wsgi"], cwd=ROOT,
                            capture_output=True, text=True, env=clean_env(DEBUG="0"))
    assert result.returncode != 0 and "SECRET_KEY must be set" in result.stderr
