"""Planning jobs: a stage's seating planned outside the request, its state kept in the database.

A job is created by `start_planning` (permission checked, one job per stage at a time) and run by
`run_job` wherever it was dispatched (in the request for small stages, on a thread of the web
process in the embedded setup, or on the Celery worker with Redis). Whatever runs it writes its
progress to the row, so any web process can answer the page's polling and say when it will be done.
The write itself is `services.generate_seating`: fingerprint check, one transaction, audit.
"""
import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from championships.models import Stage
from championships.permissions import require_organizer
from engines.rulesets import ruleset_for

from . import services
from .models import PlanningJob
from .selectors import seatable_entries

logger = logging.getLogger(__name__)

SECONDS_PER_SEAT = 0.001
"""The expected time of a job per player and game until one has run on this site (measured on 2 busy
cores: 3,000 players × 4 games took 5-12 s, of which 1-2 s of search, the rest reading and writing)."""
PROGRESS_INTERVAL = 0.5
"""Seconds between two progress writes, so a chatty engine costs the database little."""
SEARCH_SHARE = 0.6
"""The engine's search as a share of a whole job: reading the stage before and writing the games after
take the rest (at 3,000 players × 4 games on SQLite, about 2 s of search in a 5-12 s job)."""
STALLED_AFTER = timedelta(minutes=2)
"""A job not heard of for this long (and twice its estimate) is taken as lost (a restarted process)."""


def _estimate(players: int, games: int) -> float:
    """Seconds: the last finished job's pace on this site, scaled to this stage's players and games."""
    last = (PlanningJob.objects.filter(status=PlanningJob.Status.SUCCEEDED, started_at__isnull=False)
            .select_related("stage").order_by("-finished_at").first())
    pace = SECONDS_PER_SEAT
    if last is not None and last.finished_at and last.started_at and last.players and last.stage.games:
        pace = max((last.finished_at - last.started_at).total_seconds(), 0.01) / (last.players * last.stage.games)
    return max(1.0, pace * players * games)


def stalled(job: PlanningJob, now: datetime | None = None) -> bool:
    """An active job whose runner has not reported for a long time (its process stopped)."""
    quiet = (now or timezone.now()) - job.updated_at
    return job.active and quiet > max(STALLED_AFTER, timedelta(seconds=2 * job.estimate_seconds))


def start_planning(stage_id: int, *, user, seed: int, language: str = "en") -> PlanningJob:
    """A new planning job for the stage; refused while another one is under way (a lost one is closed)."""
    with transaction.atomic():
        stage = Stage.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=stage_id)
        require_organizer(user, stage.tournament)
        if stage.seating != Stage.Seating.SCHEDULED:
            raise ValidationError(_("%(stage)s is seeded by rank, not generated.") % {"stage": stage.name})
        for job in stage.planning_jobs.filter(status__in=[PlanningJob.Status.QUEUED, PlanningJob.Status.RUNNING]):
            if not stalled(job):
                raise ValidationError(_("The seating of %(stage)s is already being planned; wait until it is "
                                        "done.") % {"stage": stage.name})
            _finish(job.pk, PlanningJob.Status.FAILED,
                    _("The planning stopped without finishing (the server was restarted); nothing was written."),
                    from_statuses=(PlanningJob.Status.QUEUED, PlanningJob.Status.RUNNING))
        players = seatable_entries(stage.tournament_id).count()
        return PlanningJob.objects.create(stage=stage, requested_by=user, seed=seed, language=language[:16],
                                          players=players, estimate_seconds=_estimate(players, stage.games))


def _finish(job_id: int, status: str, message: str, from_statuses=(PlanningJob.Status.RUNNING,)) -> None:
    now = timezone.now()
    changes = {"status": status, "message": message[:500], "finished_at": now, "updated_at": now}
    if status == PlanningJob.Status.SUCCEEDED:
        changes["done"] = 1.0
    PlanningJob.objects.filter(pk=job_id, status__in=from_statuses).update(**changes)


def fail_to_dispatch(job: PlanningJob, message: str) -> None:
    """The job could not be handed to a worker: it fails with this message and may be run again."""
    _finish(job.pk, PlanningJob.Status.FAILED, message, from_statuses=(PlanningJob.Status.QUEUED,))


def fail_lost(job_id: int) -> None:
    """The process running the job died (killed, out of memory): the job fails now, not when it is taken as
    stalled minutes later, so the organizer can plan again at once. Nothing was written (one transaction)."""
    _finish(job_id, PlanningJob.Status.FAILED,
            _("The worker planning the seating stopped before it finished (it was restarted or ran out of "
              "memory); nothing was written. Plan again."),
            from_statuses=(PlanningJob.Status.QUEUED, PlanningJob.Status.RUNNING))


def _summary(result, stage: Stage) -> str:
    report = result.report
    counts = {"s": report.seconds, "f": len(report.friend_conflicts), "r": report.repeat_pairings,
              "p": report.position_repeats, "c": report.same_country_tablemates}
    if ruleset_for(stage.tournament.ruleset).distinct_positions:
        text = _("Seating planned in %(s).1f s: %(f)d friend conflicts, %(r)d repeat pairings, "
                 "%(p)d repeated positions, %(c)d same-country tablemates.") % counts
    else:
        text = _("Seating planned in %(s).1f s: %(f)d friend conflicts, %(r)d repeat pairings.") % counts
    if report.stopped_by_time_guard:  # the only case where the same seed may plan differently
        text += " " + _("The server was so busy that the search was stopped by its time guard: planning again "
                        "with the same seed may give a different seating.")
    return text


def run_job(job_id: int) -> None:
    """Plan the job's stage and record how it went; a job already taken (or closed as lost) is left alone."""
    now = timezone.now()
    if not PlanningJob.objects.filter(pk=job_id, status=PlanningJob.Status.QUEUED).update(
            status=PlanningJob.Status.RUNNING, started_at=now, updated_at=now):
        return
    job = PlanningJob.objects.select_related("requested_by", "stage__tournament").get(pk=job_id)
    last = [time.monotonic()]

    def progress(done: float) -> None:
        if time.monotonic() - last[0] >= PROGRESS_INTERVAL or done >= 1:
            last[0] = time.monotonic()
            PlanningJob.objects.filter(pk=job_id, status=PlanningJob.Status.RUNNING).update(
                done=SEARCH_SHARE * min(max(done, 0.0), 1.0), updated_at=timezone.now())

    with translation.override(job.language):
        try:
            result = services.generate_seating(job.stage_id, user=job.requested_by, seed=job.seed, progress=progress)
        except ValidationError as error:
            _finish(job_id, PlanningJob.Status.FAILED, " ".join(error.messages))
        except PermissionDenied:
            _finish(job_id, PlanningJob.Status.FAILED, _("You may no longer plan the seating of this tournament."))
        except Exception:  # noqa: BLE001 - a worker must record any failure, not lose the job silently
            logger.exception("Planning job %s failed", job_id)
            _finish(job_id, PlanningJob.Status.FAILED,
                    _("An unexpected error stopped the planning; nothing was written. Run it again; if it fails "
                      "again, the server's log has the details."))
        else:
            _finish(job_id, PlanningJob.Status.SUCCEEDED, _summary(result, job.stage))


@dataclass(frozen=True)
class JobProgress:
    """What the page says about a job: how far it is and when it should be done."""

    job: PlanningJob
    percent: int
    remaining_seconds: int
    done_at: datetime | None
    stalled: bool


def progress_of(job: PlanningJob) -> JobProgress:
    """The job's share done and an estimate of the time left: from its own pace once it has reported
    progress, before that from the site's last job scaled to this stage."""
    now = timezone.now()
    remaining = 0.0
    if job.active:
        elapsed = (now - job.started_at).total_seconds() if job.started_at else 0.0
        if job.done >= 0.05 and job.started_at:
            remaining = max(elapsed * (1 - job.done) / job.done, 1.0)
        else:
            remaining = max(job.estimate_seconds - elapsed, 1.0)
    seconds = round(remaining)
    return JobProgress(job, round(100 * job.done), seconds,
                       now + timedelta(seconds=seconds) if job.active else None, stalled(job, now))


def latest_job(stage: Stage) -> PlanningJob | None:
    return stage.planning_jobs.order_by("-created_at", "-pk").first()
