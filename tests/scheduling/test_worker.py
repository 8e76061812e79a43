"""Planning a stage on a real Celery worker over Redis, with the page polling its progress (CI)."""
import os
import time

import pytest
from celery.contrib.testing.worker import start_worker

from catan_tournaments.celery import app
from scheduling.models import Game
from tests.factories import make_entries, make_official, make_tournament

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis as the broker (CI sets REDIS_URL)"),
]


def test_large_seating_runs_on_the_worker_and_the_page_follows_it(client, monkeypatch):
    monkeypatch.setattr("scheduling.tasks.INLINE_MAX_PLAYERS", 16)  # 64 players would be planned in the request
    tournament = make_tournament(slug="worker-cup", games=3)
    make_entries(tournament, 64)
    stage = tournament.stages.get()
    client.force_login(make_official(tournament, "organizer"))
    app.conf.task_always_eager = False
    with start_worker(app, perform_ping_check=False, pool="solo", shutdown_timeout=30):
        response = client.post(f"/organize/worker-cup/stages/{stage.pk}/generate/", {"seed": 3})
        assert response.status_code == 302 and "?task=" in response["Location"]
        task_id = response["Location"].split("?task=")[1]
        for _ in range(300):
            poll = client.get(f"/organize/worker-cup/stages/{stage.pk}/tasks/{task_id}/", HTTP_HX_REQUEST="true")
            if poll.status_code == 204:
                break
            assert "Expected to be done at" in poll.content.decode()  # waiting for the worker, then planning
            time.sleep(0.1)
        assert poll.status_code == 204 and poll["HX-Redirect"] == f"/organize/worker-cup/stages/{stage.pk}/"
    assert Game.objects.filter(stage=stage).count() == 3
    page = client.get(poll["HX-Redirect"]).content.decode()
    assert "Seating planned in" in page
