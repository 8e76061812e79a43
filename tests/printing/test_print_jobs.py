"""Print jobs: a game's record sheets or table cards as one PDF in the background, with progress, download,
failure with its message, and retry."""
import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse

from championships.models import Player
from printing import jobs
from printing.jobs import retry_print_job, run_print_job, start_print_job
from printing.models import PrintJob
from tests.factories import make_entries, make_game, make_official, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    tournament = make_tournament(slug="print-jobs", games=1)
    entries = make_entries(tournament, 24)
    for n, entry in enumerate(entries):
        Player.objects.filter(pk=entry.player_id).update(name=f"Jobber {n:02d}")
    game = make_game(tournament, [entries[i:i + 4] for i in range(0, 24, 4)])
    organizer = make_official(tournament, "organizer")
    client = Client()
    client.force_login(organizer)
    return tournament, game, organizer, client


def test_start_runs_eagerly_and_the_pdf_is_downloadable(event, text_of, monkeypatch):
    tournament, game, organizer, client = event
    monkeypatch.setattr(jobs, "TABLES_PER_PART", 4)  # six tables: two parts, progress after each
    shares = []
    job = PrintJob(game=game, kind="record_sheets", paper="letter")
    assert jobs.layout(job, shares.append).startswith(b"%PDF-") and shares == [0.5, 1.0]
    response = client.post(reverse("print-job-start", args=[tournament.slug]),
                           {"game": 1, "kind": "record_sheets", "paper": "letter"})
    job = PrintJob.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("print-job", args=[tournament.slug, job.pk])
    assert job.status == PrintJob.Status.SUCCEEDED and job.done == 1.0 and job.paper == "letter"
    page = client.get(response["Location"])
    assert "The PDF is ready." in page.content.decode()
    pdf = client.get(reverse("print-job-download", args=[tournament.slug, job.pk]))
    assert pdf["Content-Type"] == "application/pdf"
    text = text_of(pdf.content)
    assert text.count("Game record sheet") == 6 and "Jobber 00" in text and "Jobber 23" in text
    assert "Game 1 · Table 6" in text


def test_progress_is_polled_while_the_job_runs(event):
    tournament, game, organizer, client = event
    job = start_print_job(game, "table_cards", user=organizer, language="en", paper="a4")
    PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.Status.RUNNING, done=0.45)
    url = reverse("print-job", args=[tournament.slug, job.pk])
    html = client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert 'value="45"' in html and f'hx-get="{url}"' in html and "<html" not in html
    assert client.get(reverse("print-job-download", args=[tournament.slug, job.pk])).status_code == 404
    # the same document asked for again while it runs: the running job, not a second one
    assert start_print_job(game, "table_cards", user=organizer, language="en", paper="a4").pk == job.pk


def test_a_failed_job_shows_its_error_and_runs_again(event, monkeypatch, text_of):
    tournament, game, organizer, client = event

    def broken(job, progress):
        raise MemoryError
    monkeypatch.setattr(jobs, "layout", broken)
    client.post(reverse("print-job-start", args=[tournament.slug]), {"game": 1, "kind": "table_cards", "paper": "a4"})
    job = PrintJob.objects.get()
    assert job.status == PrintJob.Status.FAILED and "MemoryError" in job.message and job.pdf is None
    page = client.get(reverse("print-job", args=[tournament.slug, job.pk])).content.decode()
    assert "could not be laid out" in page and "Run the print job again" in page
    monkeypatch.undo()
    client.post(reverse("print-job-retry", args=[tournament.slug, job.pk]))
    job.refresh_from_db()
    assert job.status == PrintJob.Status.SUCCEEDED and job.message == ""
    assert text_of(bytes(job.pdf)).count("Play order") == 6


def test_only_failed_jobs_are_retried_and_only_by_organizers(event):
    tournament, game, organizer, client = event
    job = start_print_job(game, "table_cards", user=organizer, language="en", paper="a4")
    run_print_job(job.pk)
    with pytest.raises(ValidationError, match="Only a failed print job"):
        retry_print_job(job.pk, user=organizer)
    referee = make_official(tournament, "referee")
    with pytest.raises(PermissionDenied):
        start_print_job(game, "table_cards", user=referee, language="en", paper="a4")
    other = Client()
    other.force_login(referee)
    assert other.get(reverse("print-job-download", args=[tournament.slug, job.pk])).status_code == 403


def test_the_console_offers_the_games_and_refuses_an_unknown_one(event):
    tournament, game, organizer, client = event
    page = client.get(reverse("organize-tournament", args=[tournament.slug])).content.decode()
    assert '<option value="1">Game 1</option>' in page and 'name="kind"' in page
    assert reverse("print-record-sheets", args=[tournament.slug, 1]) in page
    response = client.post(reverse("print-job-start", args=[tournament.slug]),
                           {"game": 7, "kind": "table_cards", "paper": "a4"}, follow=True)
    assert "Select a valid choice" in response.content.decode() and not PrintJob.objects.exists()


def test_with_the_broker_unreachable_the_job_runs_in_the_request(event, monkeypatch):
    tournament, game, organizer, client = event
    from kombu.exceptions import OperationalError

    from printing import tasks

    def unreachable(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
    monkeypatch.setattr(tasks.print_job_task, "delay", unreachable)
    conf = tasks.print_job_task.app.conf
    eager, conf.task_always_eager = conf.task_always_eager, False
    try:
        client.post(reverse("print-job-start", args=[tournament.slug]),
                    {"game": 1, "kind": "table_cards", "paper": "a4"})
    finally:
        conf.task_always_eager = eager
    assert PrintJob.objects.get().status == PrintJob.Status.SUCCEEDED
