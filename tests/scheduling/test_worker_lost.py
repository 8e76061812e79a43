"""A Celery pool process killed in the middle of planning (found by `make chaos`): the job fails at once."""
import pytest
from celery.exceptions import WorkerLostError
from celery.signals import task_failure

from scheduling import jobs, tasks
from scheduling.models import Game, PlanningJob
from tests.factories import make_entries, make_official, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def running_job():
    tournament = make_tournament(slug="killed-cup", games=1)
    make_entries(tournament, 8)
    organizer = make_official(tournament, "organizer")
    job = jobs.start_planning(tournament.stages.get().pk, user=organizer, seed=1)
    PlanningJob.objects.filter(pk=job.pk).update(status=PlanningJob.Status.RUNNING)
    return job, organizer


def report(job_id, exception, sender=tasks.generate_seating_task):
    task_failure.send(sender=sender, task_id="t-1", exception=exception, args=[job_id], kwargs={},
                      traceback=None, einfo=None)


def test_a_worker_lost_mid_task_fails_the_job_at_once_and_it_can_be_planned_again(running_job):
    job, organizer = running_job
    report(job.pk, WorkerLostError("Worker exited prematurely: signal 9 (SIGKILL)."))
    job.refresh_from_db()
    assert job.status == PlanningJob.Status.FAILED
    assert "stopped before it finished" in job.message and "Plan again" in job.message
    again = jobs.start_planning(job.stage_id, user=organizer, seed=1)  # not "already being planned"
    jobs.run_job(again.pk)
    again.refresh_from_db()
    assert again.status == PlanningJob.Status.SUCCEEDED and Game.objects.filter(stage_id=job.stage_id).exists()


def test_other_failures_and_other_tasks_leave_the_job_alone(running_job):
    job, _organizer = running_job
    report(job.pk, ValueError("not a lost worker"))
    report(job.pk, WorkerLostError("lost"), sender=object())
    job.refresh_from_db()
    assert job.status == PlanningJob.Status.RUNNING


def test_a_job_that_finished_is_not_marked_failed_afterwards(running_job):
    job, _organizer = running_job
    PlanningJob.objects.filter(pk=job.pk).update(status=PlanningJob.Status.SUCCEEDED, message="done")
    report(job.pk, WorkerLostError("lost after success"))
    job.refresh_from_db()
    assert job.status == PlanningJob.Status.SUCCEEDED
