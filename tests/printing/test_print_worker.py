"""A print job laid out on a real Celery worker over Redis while the page polls it (CI sets REDIS_URL)."""
import os
import time

import pytest
from celery.contrib.testing.worker import start_worker

from catan_tournaments.celery import app
from printing.models import PrintJob
from tests.factories import make_entries, make_game, make_official, make_tournament

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis as the broker (CI sets REDIS_URL)"),
]


def test_record_sheets_are_laid_out_on_the_worker(client, text_of, monkeypatch):
    monkeypatch.setattr("printing.tasks.INLINE_MAX_TABLES", 0)  # two tables: laid out in the request otherwise
    tournament = make_tournament(slug="print-worker", games=1)
    entries = make_entries(tournament, 8)
    make_game(tournament, [entries[:4], entries[4:]])
    client.force_login(make_official(tournament, "organizer"))
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        with start_worker(app, perform_ping_check=False, pool="solo", shutdown_timeout=30):
            response = client.post("/organize/print-worker/print/jobs/",
                                   {"game": 1, "kind": "record_sheets", "paper": "a4"})
            job = PrintJob.objects.get()
            assert response["Location"] == f"/organize/print-worker/print/jobs/{job.pk}/"
            for _ in range(600):
                poll = client.get(response["Location"], HTTP_HX_REQUEST="true").content.decode()
                if "The PDF is ready." in poll:
                    break
                assert "<progress" in poll  # waiting for the worker, then laying out
                time.sleep(0.1)
    finally:
        app.conf.task_always_eager = eager
    assert "The PDF is ready." in poll
    pdf = client.get(f"/organize/print-worker/print/jobs/{job.pk}/download.pdf").content
    assert text_of(pdf).count("Game record sheet") == 2
