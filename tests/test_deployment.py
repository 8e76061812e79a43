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
APP_SERVICES = ["web", "worker", "worker-outbound", "beat"]


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


def test_only_the_tls_proxy_is_published_and_it_serves_the_repositorys_nginx_config():
    """Issue 34: the replicas are reached through nginx only (deploy/nginx/), which `make stack` runs too."""
    published = {name: service["ports"] for name, service in SERVICES.items() if service.get("ports")}
    assert published == {"nginx": ["443:443"]}
    nginx = SERVICES["nginx"]
    mounts = dict(volume.rsplit(":", 1)[0].split(":", 1) for volume in nginx["volumes"])
    assert mounts["./deploy/nginx"] == "/etc/nginx/templates"  # the image fills *.template from the environment
    template = (ROOT / "deploy" / "nginx" / "catan.conf.template").read_text(encoding="utf-8")
    needed = set(re.findall(r"\$\{([A-Z_]+)\}", template))
    assert needed == set(nginx["environment"])
    upstreams = nginx["environment"]["NGINX_UPSTREAMS"].removeprefix("/etc/nginx/templates/")
    assert (ROOT / "deploy" / "nginx" / upstreams).read_text(encoding="utf-8").count("server web:8000") == 1
    assert nginx["depends_on"]["web"]["condition"] == "service_healthy"


def test_two_web_replicas_share_one_configuration_for_the_proxy_and_the_metrics():
    web = SERVICES["web"]
    assert web["deploy"]["replicas"] == 2 and "ports" not in web and web["expose"] == ["8000"]
    for name in APP_SERVICES:
        environment = SERVICES[name]["environment"]
        assert environment["PROXY_COUNT"] == "1" and environment["DEBUG"] == "0"
        for required in ("SITE_URL", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "EMAIL_URL", "SECRET_KEY",
                         "DEFAULT_FROM_EMAIL"):
            assert environment[required].startswith(f"${{{required}:?"), (name, required)
        assert "METRICS_TOKEN" in environment
        folder = environment["PROMETHEUS_MULTIPROC_DIR"]
        assert f"metrics:{folder}" in SERVICES[name]["volumes"]  # every process of the host adds to one sum
    assert "metrics" in COMPOSE["volumes"]


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
