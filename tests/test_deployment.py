"""The deployment files: docker-compose.yml keeps the cache apart from Celery's broker and shows the app to the
host's loopback only, beat's health check notices a beat that stopped, and the image installs the lock once."""
import os
import re
import subprocess
import time
from pathlib import Path
from urllib.parse import urlsplit

import yaml

from catan_tournaments.beat import HeartbeatScheduler, heartbeat_path
from catan_tournaments.celery import app as celery_app

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))
SERVICES = COMPOSE["services"]
APP_SERVICES = ["web", "worker", "beat"]


def option(command: list[str], name: str) -> str:
    return command[command.index(name) + 1]


def test_the_cache_has_a_bounded_redis_of_its_own_and_the_broker_never_evicts():
    """Random query strings grew the one Redis the cache shared with Celery's queue (issue 22)."""
    for name in APP_SERVICES:
        environment = SERVICES[name]["environment"]
        cache, broker = urlsplit(environment["REDIS_CACHE_URL"]).hostname, urlsplit(environment["REDIS_URL"]).hostname
        assert cache != broker, name
        assert option(SERVICES[cache]["command"], "--maxmemory") == "256mb"
        assert option(SERVICES[cache]["command"], "--maxmemory-policy") == "allkeys-lru"
        assert option(SERVICES[broker]["command"], "--maxmemory-policy") == "noeviction"


def test_the_app_is_published_on_the_hosts_loopback_only():
    published = [port for service in SERVICES.values() for port in service.get("ports", [])]
    assert published and all(port.startswith("127.0.0.1:") for port in published), published


def test_beats_health_check_fails_once_beat_stops_beating(tmp_path):
    """It only checked that the schedule file existed, which a hung beat's does for ever."""
    beat = SERVICES["beat"]
    deployed = heartbeat_path(option(beat["command"], "--schedule"))
    check = beat["healthcheck"]["test"][1].replace("$$", "$")  # compose's escape for a literal $
    assert str(deployed) in check
    schedule = tmp_path / "celerybeat-schedule"
    here = check.replace(str(deployed), str(heartbeat_path(str(schedule))))

    def healthy() -> bool:
        return subprocess.run(["sh", "-c", here], capture_output=True).returncode == 0

    assert celery_app.conf.beat_scheduler == "catan_tournaments.beat:HeartbeatScheduler"
    assert not healthy()  # beat never ran
    scheduler = HeartbeatScheduler(app=celery_app, schedule_filename=str(schedule))
    try:
        scheduler.tick()  # nothing is due yet: nothing is sent
    finally:
        scheduler.close()
    assert healthy()
    # Beat passes through its loop at least every beat_max_loop_interval seconds: well within the check's 3 minutes.
    assert celery_app.conf.beat_max_loop_interval * 2 <= 3 * 60
    stopped = time.time() - 4 * 60
    os.utime(heartbeat_path(str(schedule)), (stopped, stopped))
    assert not healthy()


def test_the_image_installs_the_locked_versions_and_holds_the_code_once():
    """It installed ranges, then the packages into site-packages and the whole tree again into /app."""
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    installs = re.findall(r"pip install ([^\n&]*)", dockerfile)
    assert installs == ["--require-hashes -r requirements/runtime.txt"]
    copies = re.findall(r"^COPY (.*)$", dockerfile, flags=re.MULTILINE)
    assert copies == ["requirements/runtime.txt requirements/runtime.txt", ". ."]


def test_every_app_service_is_given_the_sites_address():
    """Every emailed link pointed at localhost:8000: compose never passed SITE_URL (issue 32)."""
    for name in APP_SERVICES:
        assert SERVICES[name]["environment"]["SITE_URL"] == "${SITE_URL:?set SITE_URL}", name
