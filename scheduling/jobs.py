"""Planning jobs: a stage's seating planned outside the request, its state kept in the database.

A job is created by `start_planning` (permission checked, one job per stage at a time) and run by
`run_job` wherever `tasks.dispatch` sent it (the request for small stages, else `core.background`).
Claim, progress, stall and finish are `core.jobs`'s, as for every background job; this module adds the
estimate of when it will be done. The write itself is `services.generate_seating`: fingerprint check, one
transaction, audit.
"""
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from championships.models import Stage
from championships.permissions import require_organizer
from core import jobs as core_jobs
from engines.rulesets import ruleset_for

from . import services
from .models import PlanningJob
from .selectors import seatable_entries

SECONDS_PER_SEAT = 0.001
"""The expected time of a job per player and game until one has run on this site (measured on 2 busy
cores: 3,000 players × 4 games took 5-12 s, of which 1-2 s of search, the rest reading and writing)."""
PROGRESS_INTERVAL = 0.5
"""Seconds between two progress writes, so a chatty engine costs the database little."""
SEARCH_SHARE = 0.6
"""The engine's search as a share of a whole job: reading the stage before and writing the games after
take the rest (at 3,000 players × 4 games on SQLite, about 2 s of search in a 5-12 s job)."""


def _estimate(players: int, games: int) -> float:
    """Seconds: the last finished job's pace on this site, scaled to this stage's players and games."""
    last = (PlanningJob.objects.filter(status=PlanningJob.Status.SUCCEEDED, started_at__isnull=False)
            .select_related("stage").order_by("-finished_at").first())
    pace = SECONDS_PER_SEAT
    if last is not None and last.finished_at and last.started_at and last.players and last.stage.games:
        pace = max((last.finished_at - last.started_at).total_seconds(), 0.01) / (last.players * last.stage.games)
    return max(1.0, pace * players * games)


def start_planning(stage_id: int, *, user, seed: int, language: str = "en") -> PlanningJob:
    """A new planning job for the stage; refused while another one is under way (a lost one is closed)."""
    with transaction.atomic():
        stage = Stage.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=stage_id)
        require_organizer(user, stage.tournament)
        if stage.seating != Stage.Seating.SCHEDULED:
            raise ValidationError(_("%(stage)s is seeded by rank, not generated.") % {"stage": stage.name})
        for job in stage.planning_jobs.filter(status__in=[PlanningJob.Status.QUEUED, PlanningJob.Status.RUNNING]):
            if not job.stalled():
                raise ValidationError(_("The seating of %(stage)s is already being planned; wait until it is "
                                        "done.") % {"stage": stage.name})
            core_jobs.fail_lost(PlanningJob, job.pk, _("The planning stopped without finishing (the server was "
                                                        "restarted); nothing was written."))
        players = seatable_entries(stage.tournament_id).count()
        return PlanningJob.objects.create(stage=stage, requested_by=user, seed=seed, language=language[:16],
                                          players=players, estimate_seconds=_estimate(players, stage.games))


def fail_lost(job_id: int) -> None:
    """The process running the job died (killed, out of memory): the job fails now, not when it is taken as
    stalled minutes later, so the organizer can plan again at once. Nothing was written (one transaction)."""
    core_jobs.fail_lost(PlanningJob, job_id,
                        _("The worker planning the seating stopped before it finished (it was restarted or ran out "
                          "of memory); nothing was written. Plan again."))


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
    progress = core_jobs.progress_writer(PlanningJob, job_id, scale=SEARCH_SHARE, interval=PROGRESS_INTERVAL)

    def plan(job: PlanningJob) -> tuple[str, dict]:
        result = services.generate_seating(job.stage_id, user=job.requested_by, seed=job.seed, progress=progress)
        return _summary(result, job.stage), {}

    core_jobs.run(PlanningJob, job_id, plan, related=("requested_by", "stage__tournament"),
                  denied=gettext_lazy("You may no longer plan the seating of this tournament."),
                  unexpected=lambda error: _("An unexpected error stopped the planning; nothing was written. Run it "
                                             "again; if it fails again, the server's log has the details."))


def progress_of(job: PlanningJob) -> core_jobs.JobProgress:
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
    return core_jobs.JobProgress(job, job.percent, job.stalled(now), seconds,
                                 now + timedelta(seconds=seconds) if job.active else None)


def latest_job(stage: Stage) -> PlanningJob | None:
    return stage.planning_jobs.order_by("-created_at", "-pk").first()
