"""Background jobs whose state lives in the database: one abstract model and the helpers every kind shares.

A kind of job (a stage's seating plan, a game's print job) is a model inheriting `BackgroundJob` plus a function
that does its work. Its life: created QUEUED by the app's service, handed over by `dispatch` (in the request when
small, else `core.background`: the Celery worker, or this process's threads without one), taken by exactly one
runner (`claim`: QUEUED → RUNNING, `started_at`), reporting its share done (`done`, heartbeat `updated_at`) so any
web process can answer the progress page's polling, then closed by `finish` (SUCCEEDED or FAILED with its
`message`). A job whose runner stopped reporting for longer than the kind allows is `stalled`: a new one may start
and the page says so. `run` wraps the work so every failure ends as a message on the row, never as a lost job.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models, transaction
from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from .background import run_in_background

if TYPE_CHECKING:
    from celery import Task

logger = logging.getLogger(__name__)


class BackgroundJob(models.Model):
    """What every background job records: who asked, in which language, how far it is and how it ended."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting to start")
        RUNNING = "running", _("running")
        SUCCEEDED = "succeeded", _("done")
        FAILED = "failed", _("failed")

    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+")
    language = models.CharField(max_length=16, default="en")
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    done = models.FloatField(_("share done"), default=0.0)
    message = models.CharField(_("message"), max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)  # when a runner claimed it
    updated_at = models.DateTimeField(auto_now=True)  # the runner's heartbeat: its last progress report
    finished_at = models.DateTimeField(null=True, blank=True)

    stalled_after = timedelta(minutes=5)
    """A job not heard of for this long is taken as lost (its process restarted); a kind may say longer."""

    class Meta:
        abstract = True
        ordering = ["-created_at"]

    @property
    def active(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)

    @property
    def percent(self) -> int:
        return round(self.done * 100)

    def quiet_limit(self) -> timedelta:
        """How long this job may go without reporting before it is taken as lost."""
        return self.stalled_after

    def stalled(self, now: datetime | None = None) -> bool:
        """An active job whose runner has not reported for too long (its process stopped)."""
        return self.active and (now or timezone.now()) - self.updated_at > self.quiet_limit()


@dataclass(frozen=True)
class JobProgress:
    """What the progress panel (templates/core/_job_progress.html) says of a job; a kind that can tell when its
    job will be done fills the last two."""

    job: BackgroundJob
    percent: int
    stalled: bool
    remaining_seconds: int = 0
    done_at: datetime | None = None


def progress_of(job: BackgroundJob) -> JobProgress:
    return JobProgress(job, job.percent, job.stalled())


J = TypeVar("J", bound=BackgroundJob)
ACTIVE = (BackgroundJob.Status.QUEUED, BackgroundJob.Status.RUNNING)


def claim(model: type[BackgroundJob], job_id: int) -> bool:
    """Take a queued job for this runner; False when another runner has it (or it was closed meanwhile)."""
    now = timezone.now()
    return bool(model._default_manager.filter(pk=job_id, status=BackgroundJob.Status.QUEUED).update(
        status=BackgroundJob.Status.RUNNING, started_at=now, updated_at=now))


def finish(model: type[BackgroundJob], job_id: int, status: str, message: str = "", *,
           from_statuses: Iterable[str] = (BackgroundJob.Status.RUNNING,), **changes: Any) -> None:
    """Close the job (a success is all done) unless it has left `from_statuses` meanwhile."""
    now = timezone.now()
    if status == BackgroundJob.Status.SUCCEEDED:
        changes["done"] = 1.0
    model._default_manager.filter(pk=job_id, status__in=list(from_statuses)).update(
        status=status, message=message[:500], finished_at=now, updated_at=now, **changes)


def fail_lost(model: type[BackgroundJob], job_id: int, message: str) -> None:
    """The job's runner is gone (killed, restarted): the job fails with this message and may be run again."""
    finish(model, job_id, BackgroundJob.Status.FAILED, message, from_statuses=ACTIVE)


def progress_writer(model: type[BackgroundJob], job_id: int, *, scale: float = 1.0,
                    interval: float = 0.0) -> Callable[[float], None]:
    """A callback for the work: its share done (0-1), written as `scale` of the whole job at most every
    `interval` seconds (the last report always), with the heartbeat."""
    last = [-interval]

    def progress(share: float) -> None:
        if time.monotonic() - last[0] >= interval or share >= 1:
            last[0] = time.monotonic()
            model._default_manager.filter(pk=job_id, status=BackgroundJob.Status.RUNNING).update(
                done=scale * min(max(share, 0.0), 1.0), updated_at=timezone.now())
    return progress


def run(model: type[J], job_id: int, work: Callable[[J], tuple[str, dict[str, Any]]], *, related: Iterable[str],
        denied: str | Promise, unexpected: Callable[[Exception], str]) -> None:
    """Claim the job and do `work(job)` in the requester's language; it returns the success message and the
    fields to store. A refusal (`ValidationError`) fails the job with its own words, a lost permission with
    `denied`, anything else with `unexpected(error)` and the details in the log."""
    if not claim(model, job_id):
        return
    job = model._default_manager.select_related(*related).get(pk=job_id)
    with translation.override(job.language):
        try:
            message, changes = work(job)
        except ValidationError as error:
            finish(model, job_id, BackgroundJob.Status.FAILED, " ".join(error.messages))
        except PermissionDenied:
            finish(model, job_id, BackgroundJob.Status.FAILED, str(denied))
        except Exception as error:  # a runner must record any failure, not lose the job silently
            logger.exception("%s %s failed", model.__name__, job_id)
            finish(model, job_id, BackgroundJob.Status.FAILED, unexpected(error))
        else:
            finish(model, job_id, BackgroundJob.Status.SUCCEEDED, message, **changes)


def run_again_later(model: type[BackgroundJob], job_id: int, task: Task[..., Any], seconds: float, message: str = "",
                    **changes: Any) -> bool:
    """The running job goes back to QUEUED, to be run by `task` again in `seconds` (a retry after a backoff: the
    worker's countdown, or `core.background`'s timer without one); `changes` are stored with it. False when the
    job had left RUNNING meanwhile (nothing is queued then)."""
    moved = model._default_manager.filter(pk=job_id, status=BackgroundJob.Status.RUNNING).update(
        status=BackgroundJob.Status.QUEUED, message=message[:500], updated_at=timezone.now(), **changes)
    if moved:
        transaction.on_commit(lambda: run_in_background(task, job_id, countdown=seconds))
    return bool(moved)


def dispatch(job: BackgroundJob, task: Task[..., Any], *, here: bool = False) -> None:
    """Run the job's `task`: within the request when `here` (small enough to answer at once), else in the
    background (`core.background`, whose one policy covers a missing or unreachable broker) once the job's row
    has committed."""
    if here:
        task(job.pk)
    else:
        transaction.on_commit(lambda: run_in_background(task, job.pk))
