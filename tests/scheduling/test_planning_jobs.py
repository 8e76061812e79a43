"""Planning through the web app: small stages in the request, large ones as a job that the page follows."""
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEntry
from championships.models import Entry
from core import background
from engines.seating import engine, search
from scheduling import jobs, services, tasks
from scheduling.models import Game, PlanningJob
from tests.clocks import SlowClock
from tests.factories import make_entries, make_official, make_tournament

from .crowd import crowd

pytestmark = pytest.mark.django_db


class HeldExecutor:
    """Takes jobs and holds them, so a test sees the request's answer before the plan is written."""

    def __init__(self):
        self.submitted = []

    def submit(self, fn, *args):
        self.submitted.append((fn, args))


@pytest.fixture
def held(monkeypatch):
    executor = HeldExecutor()
    monkeypatch.setattr(background, "executor", executor)
    monkeypatch.setitem(tasks.generate_seating_task.app.conf, "task_always_eager", True)  # embedded, even in CI
    return executor


def url(stage, name="stage-seating", **extra):
    return reverse(name, kwargs={"slug": stage.tournament.slug, "stage_id": stage.pk, **extra})


def start(client, stage, django_capture_on_commit_callbacks, seed=1):
    with django_capture_on_commit_callbacks(execute=True):
        return client.post(url(stage, "stage-generate"), {"seed": seed})


def poll(client, stage, job):
    return client.get(url(stage, "stage-task", task_id=job.pk), HTTP_HX_REQUEST="true")


def test_planning_3000_players_answers_at_once_with_a_job_the_page_follows(client, held,
                                                                          django_capture_on_commit_callbacks):
    tournament = make_tournament(slug="big-cup", games=4, ruleset="cwc-2025")
    crowd(tournament, 3000)
    stage = tournament.stages.get()
    client.force_login(make_official(tournament, "organizer"))
    response = start(client, stage, django_capture_on_commit_callbacks, seed=7)
    job = PlanningJob.objects.get(stage=stage)
    assert response.status_code == 302 and response["Location"] == f"{url(stage)}?task={job.pk}"
    assert (job.status, job.players, job.seed) == (PlanningJob.Status.QUEUED, 3000, 7)
    assert held.submitted == [(background.run_on_thread, (tasks.generate_seating_task, job.pk))]  # not run yet
    assert not Game.objects.filter(stage=stage).exists()  # the request did not plan
    page = client.get(response["Location"]).content.decode()
    assert "Waiting for the planner" in page and "Expected to be done at" in page and "3000 players" in page
    progress = poll(client, stage, job).content.decode()
    assert 'hx-trigger="every 1s"' in progress and 'value="0"' in progress
    again = client.post(url(stage, "stage-generate"), {"seed": 8}, follow=True)
    assert "already being planned" in again.content.decode()
    assert PlanningJob.objects.filter(stage=stage).count() == 1


def test_the_progress_endpoint_reports_share_and_time_left_then_sends_the_page(client, held, monkeypatch,
                                                                              django_capture_on_commit_callbacks):
    monkeypatch.setattr(tasks, "INLINE_MAX_PLAYERS", 0)
    tournament = make_tournament(slug="mid-cup", games=2)
    make_entries(tournament, 12)
    stage = tournament.stages.get()
    organizer = make_official(tournament, "organizer")
    client.force_login(organizer)
    start(client, stage, django_capture_on_commit_callbacks, seed=3)
    job = PlanningJob.objects.get(stage=stage)
    PlanningJob.objects.filter(pk=job.pk).update(status="running", done=0.5,
                                                 started_at=timezone.now() - timedelta(seconds=10))
    html = poll(client, stage, job).content.decode()
    assert 'value="50"' in html and "Planning the seating" in html and "in about 10 seconds" in html
    seen = []
    real = services.generate_seating

    def watched(stage_id, *, progress, **kwargs):
        def report(done):
            progress(done)
            seen.append(PlanningJob.objects.get(pk=job.pk).done)
        return real(stage_id, progress=report, **kwargs)

    PlanningJob.objects.filter(pk=job.pk).update(status="queued", done=0, started_at=None)
    monkeypatch.setattr(jobs.services, "generate_seating", watched)
    jobs.run_job(job.pk)  # what the worker thread runs (held back by the test)
    assert seen and seen[-1] == jobs.SEARCH_SHARE  # the search is done; writing the games is the rest
    done = poll(client, stage, job)
    assert done.status_code == 204 and done["HX-Redirect"] == url(stage)
    assert "Seating planned in" in client.get(url(stage)).content.decode()
    assert Game.objects.filter(stage=stage).count() == 2
    entry = AuditEntry.objects.get(action="seating.generated")
    assert entry.user == organizer and entry.after["seed"] == 3


def test_a_failed_job_shows_its_error_and_runs_again(client, held, monkeypatch, django_capture_on_commit_callbacks):
    monkeypatch.setattr(tasks, "INLINE_MAX_PLAYERS", 0)
    tournament = make_tournament(slug="fail-cup", games=2)
    entries = make_entries(tournament, 13)
    stage = tournament.stages.get()
    client.force_login(make_official(tournament, "organizer"))
    start(client, stage, django_capture_on_commit_callbacks, seed=5)
    job = PlanningJob.objects.get(stage=stage)
    real = services.generate_seating

    def withdrawn_meanwhile(stage_id, *, progress, **kwargs):
        def report(done):
            Entry.objects.filter(pk=entries[0].pk).update(status=Entry.Status.WITHDRAWN)
            progress(done)
        return real(stage_id, progress=report, **kwargs)

    monkeypatch.setattr(jobs.services, "generate_seating", withdrawn_meanwhile)
    jobs.run_job(job.pk)
    job.refresh_from_db()
    assert job.status == PlanningJob.Status.FAILED and "changed while its seating was being planned" in job.message
    assert not Game.objects.filter(stage=stage).exists()  # nothing half-written
    html = poll(client, stage, job).content.decode()
    assert "Planning failed" in html and "changed while its seating was being planned" in html
    page = client.get(url(stage)).content.decode()
    assert "Plan again (seed 5)" in page and 'name="seed" value="5"' in page
    monkeypatch.setattr(jobs.services, "generate_seating", real)
    start(client, stage, django_capture_on_commit_callbacks, seed=5)
    rerun = PlanningJob.objects.exclude(pk=job.pk).get(stage=stage)
    jobs.run_job(rerun.pk)
    rerun.refresh_from_db()
    assert rerun.status == PlanningJob.Status.SUCCEEDED
    assert Game.objects.filter(stage=stage).count() == 2
    assert "Planning failed" not in client.get(url(stage)).content.decode()


def test_an_unexpected_error_fails_the_job_with_a_message(client, held, monkeypatch, caplog):
    tournament = make_tournament(slug="oops-cup", games=1)
    make_entries(tournament, 8)
    stage = tournament.stages.get()
    organizer = make_official(tournament, "organizer")

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(jobs.services, "generate_seating", broken)
    job = jobs.start_planning(stage.pk, user=organizer, seed=1)
    jobs.run_job(job.pk)
    job.refresh_from_db()
    assert job.status == PlanningJob.Status.FAILED and "unexpected error" in job.message
    assert "disk full" in caplog.text


def test_a_job_lost_with_its_process_may_be_run_again(client, held):
    tournament = make_tournament(slug="lost-cup", games=1)
    make_entries(tournament, 8)
    stage = tournament.stages.get()
    organizer = make_official(tournament, "organizer")
    job = jobs.start_planning(stage.pk, user=organizer, seed=1)
    with pytest.raises(ValidationError, match="already being planned"):
        jobs.start_planning(stage.pk, user=organizer, seed=1)
    PlanningJob.objects.filter(pk=job.pk).update(status="running", updated_at=timezone.now() - timedelta(hours=1))
    client.force_login(organizer)
    assert "the server was restarted" in client.get(url(stage)).content.decode()
    again = jobs.start_planning(stage.pk, user=organizer, seed=1)
    job.refresh_from_db()
    assert job.status == PlanningJob.Status.FAILED and again.status == PlanningJob.Status.QUEUED
    jobs.run_job(job.pk)  # the lost one, should it come back, does nothing
    assert not Game.objects.filter(stage=stage).exists()


@pytest.mark.parametrize("role", ["referee", None])
def test_only_organizers_follow_a_job(client, held, role):
    tournament = make_tournament(slug="own-cup", games=1)
    make_entries(tournament, 8)
    stage = tournament.stages.get()
    job = jobs.start_planning(stage.pk, user=make_official(tournament, "organizer"), seed=1)
    client.force_login(make_official(tournament, role) if role else make_official(make_tournament(), "organizer"))
    assert poll(client, stage, job).status_code == 403
    other = make_tournament(slug="other-cup", games=1).stages.get()
    client.force_login(make_official(other.tournament, "organizer"))
    assert poll(client, other, job).status_code == 404  # not this stage's job


def test_a_small_stage_is_planned_in_the_request(client):
    tournament = make_tournament(slug="small-cup", games=2)
    make_entries(tournament, 12)
    stage = tournament.stages.get()
    client.force_login(make_official(tournament, "organizer"))
    response = client.post(url(stage, "stage-generate"), {"seed": 1})
    assert response["Location"] == url(stage)  # no job to follow
    assert PlanningJob.objects.get(stage=stage).status == PlanningJob.Status.SUCCEEDED
    assert Game.objects.filter(stage=stage).count() == 2


@pytest.mark.django_db(transaction=True)
def test_the_embedded_worker_thread_plans_while_the_page_polls(client, monkeypatch):
    monkeypatch.setattr(background, "executor", ThreadPoolExecutor(max_workers=1))
    monkeypatch.setattr(tasks, "INLINE_MAX_PLAYERS", 0)
    monkeypatch.setitem(tasks.generate_seating_task.app.conf, "task_always_eager", True)
    tournament = make_tournament(slug="thread-cup", games=2)
    make_entries(tournament, 16)
    stage = tournament.stages.get()
    client.force_login(make_official(tournament, "organizer"))
    response = client.post(url(stage, "stage-generate"), {"seed": 2})
    job = PlanningJob.objects.get(stage=stage)
    assert response["Location"].endswith(f"?task={job.pk}")
    for _ in range(200):
        answer = poll(client, stage, job)
        if answer.status_code == 204:
            break
        time.sleep(0.05)
    assert answer.status_code == 204 and Game.objects.filter(stage=stage).count() == 2


def test_a_job_stopped_by_the_time_guard_says_the_same_seed_may_plan_differently(client, held, monkeypatch):
    """The web jobs run the engine's work budget; only an overloaded server hits the clock, and the job says so."""
    tournament = make_tournament(slug="slow-cup", games=4)
    make_entries(tournament, 13)
    stage = tournament.stages.get()
    organizer = make_official(tournament, "organizer")
    job = jobs.start_planning(stage.pk, user=organizer, seed=1)
    with monkeypatch.context() as slow:
        slow.setattr(search, "time", SlowClock())
        slow.setattr(engine, "DEFAULT_TIME_LIMIT", 2.0)
        jobs.run_job(job.pk)
    job.refresh_from_db()
    assert job.status == PlanningJob.Status.SUCCEEDED and Game.objects.filter(stage=stage).count() == 4
    assert "stopped by its time guard" in job.message and "same seed may give a different seating" in job.message
    quiet = jobs.start_planning(stage.pk, user=organizer, seed=1)
    jobs.run_job(quiet.pk)
    quiet.refresh_from_db()
    assert quiet.status == PlanningJob.Status.SUCCEEDED and "time guard" not in quiet.message
