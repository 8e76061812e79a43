"""The cache (Redis) is an optimisation: when it refuses or freezes, writes commit, reads come from the database."""
import socket
import threading
import time

import pytest
from celery import Celery
from django.conf import settings
from django.test import override_settings
from kombu.exceptions import OperationalError

from ranking.standings import tournament_standings
from results.sheets import save_entry, sign_off
from tests.results.test_sheets import entered, referee, signed_by_all, table  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


def redis_cache_at(location: str) -> dict:
    """A Redis cache configured like settings.py's, at the given address."""
    return {"default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": location,
        "OPTIONS": {"socket_connect_timeout": settings.REDIS_TIMEOUT, "socket_timeout": settings.REDIS_TIMEOUT},
    }}


REFUSING = redis_cache_at("redis://127.0.0.1:1/0")  # nothing listens on port 1: every command fails at once


@pytest.fixture
def frozen_server():
    """A socket that accepts connections and never answers: a Redis or broker that hangs."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    accepted, stop = [], threading.Event()
    server.settimeout(0.1)

    def accept():
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"127.0.0.1:{server.getsockname()[1]}"
    stop.set()
    thread.join()
    for connection in accepted:
        connection.close()
    server.close()


def signed(table, referee):  # noqa: F811
    sheet = table.sheet
    sheet = save_entry(sheet.pk, entered(table, [10, 7, 6, 5]), user=referee, base_version=0)
    return signed_by_all(sheet, table, referee)


def games_played(tournament):
    return [row["games"] for row in tournament_standings(tournament)]


def test_a_sign_off_commits_while_the_cache_refuses_and_the_standings_heal_within_the_bound(
        table, referee, django_capture_on_commit_callbacks, settings, caplog):  # noqa: F811
    settings.STANDINGS_CACHE_SECONDS = 1
    tournament = table.game.tournament
    sheet = signed(table, referee)
    assert games_played(tournament) == [0, 0, 0, 0]  # cached before the outage
    with override_settings(CACHES=REFUSING):
        with django_capture_on_commit_callbacks(execute=True):
            sheet = sign_off(sheet.pk, user=referee, version=sheet.version)  # returns normally
        assert sheet.is_locked
        assert games_played(tournament) == [1, 1, 1, 1]  # computed from the database meanwhile
    assert "Could not invalidate the standings" in caplog.text
    # The cache is back but missed the invalidation: what it holds expires within STANDINGS_CACHE_SECONDS.
    time.sleep(1.6)
    assert games_played(tournament) == [1, 1, 1, 1]


def test_the_referee_gets_no_server_error_when_the_cache_refuses_the_sign_off(
        client, table, referee, django_capture_on_commit_callbacks):  # noqa: F811
    sheet = signed(table, referee)
    client.force_login(referee)
    tournament = table.game.tournament
    with override_settings(CACHES=REFUSING), django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/referee/{tournament.slug}/tables/{table.pk}/sign-off/",
                               {"version": sheet.version})
    assert response.status_code == 302
    sheet.refresh_from_db()
    assert sheet.is_locked


@pytest.mark.parametrize("path", ["/t/{slug}/standings/", "/api/tournaments/{slug}/standings/"])
def test_standings_pages_answer_from_the_database_when_the_cache_refuses(client, table, path):  # noqa: F811
    slug = table.game.tournament.slug
    with override_settings(CACHES=REFUSING):
        assert client.get(path.format(slug=slug)).status_code == 200


def test_a_frozen_cache_costs_a_standings_read_well_under_a_second_or_two(table, frozen_server):  # noqa: F811
    with override_settings(CACHES=redis_cache_at(f"redis://{frozen_server}/0")):
        started = time.monotonic()
        assert games_played(table.game.tournament) == [0, 0, 0, 0]
        assert time.monotonic() - started < 4 * settings.REDIS_TIMEOUT + 0.5


def test_healthz_reports_each_dependency(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "instance": settings.INSTANCE_NAME, "database": "ok", "cache": "ok",
                               "broker": "none" if not settings.REDIS_URL else "ok"}


def test_healthz_is_degraded_but_up_when_the_cache_is_down(client):
    with override_settings(CACHES=REFUSING):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() | {"broker": "?"} == {"status": "degraded", "instance": settings.INSTANCE_NAME,
                                                 "database": "ok", "cache": "down", "broker": "?"}


def celery_app_with_broker(url: str) -> Celery:
    """An app configured from the project's settings, as the web process's is, with another broker."""
    app = Celery("broker-probe", set_as_current=False)
    app.config_from_object("django.conf:settings", namespace="CELERY")
    app.conf.update(broker_url=url, task_always_eager=False,
                    result_backend=url if app.conf.result_backend else None)  # as deployed: one Redis for both
    return app


@pytest.mark.parametrize("broker", ["refusing", "frozen"])
def test_enqueuing_fails_within_seconds_when_the_broker_is_down(broker, frozen_server):
    url = "redis://127.0.0.1:1/0" if broker == "refusing" else f"redis://{frozen_server}/0"
    app = celery_app_with_broker(url)
    started = time.monotonic()
    with pytest.raises(OperationalError):
        app.send_task("catan_tournaments.tasks.clear_expired_sessions")
    assert time.monotonic() - started < 15
    app.close()


def test_with_redis_url_the_cache_and_broker_have_short_timeouts():
    import json
    import subprocess
    import sys

    from tests.test_settings import ROOT, clean_env

    probe = ("import json, django; django.setup(); from django.conf import settings as s; "
             "print(json.dumps([s.CACHES['default']['OPTIONS'], s.CELERY_BROKER_TRANSPORT_OPTIONS]))")
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True,
                            env=clean_env(DJANGO_SETTINGS_MODULE="catan_tournaments.settings",
                                          REDIS_URL="redis://127.0.0.1:6379/3"))
    cache_options, broker_options = json.loads(result.stdout)
    assert 0 < cache_options["socket_connect_timeout"] <= 1 and 0 < cache_options["socket_timeout"] <= 1
    assert broker_options["socket_connect_timeout"] and broker_options["socket_timeout"]
