"""Writes that set a championship up and move its tournaments through their status.

`create_championship` writes a checked `ChampionshipPlan` (formats.py) in one transaction; the
creator becomes its organizer. A tournament's status moves by itself (`advance_status`, called by
`results` when game 1 is published and when the last game is signed off); an organizer may close
or reopen it with a reason (`close_tournament`, `reopen_tournament`). Each change is audited.
"""
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from audit.actions import Action
from audit.services import record_change
from core.changes import announce

from .countries import country_for_code
from .formats import ChampionshipPlan, plan_problems
from .models import Championship, StaffRole, Stage, Tournament
from .permissions import require_championship_creator, require_organizer
from .services import unique_slug

REASON_MAX = 500


@transaction.atomic
def create_championship(plan: ChampionshipPlan, *, user) -> Championship:
    """Create the championship, its tournaments and their stages; the user becomes its organizer."""
    require_championship_creator(user)
    if problems := plan_problems(plan):
        raise ValidationError(problems)
    championship = Championship.objects.create(
        name=plan.name.strip(), slug=unique_slug(Championship, plan.name), scope=plan.scope, year=plan.year,
        country=country_for_code(plan.country) if plan.country else None, age_cutoff=plan.age_cutoff,
        minimum_age=plan.minimum_age, preset=plan.preset,
    )
    short = plan.short or plan.name
    for spec in plan.tournaments:
        tournament = Tournament.objects.create(
            championship=championship, name=spec.name.strip(), kind=spec.kind, city=spec.city.strip(),
            slug=unique_slug(Tournament, f"{short} {plan.year} {spec.name}"), date=spec.date,
            official_start=spec.official_start, ruleset=plan.ruleset, advance_count=spec.advance_count,
            capacity=spec.capacity, status=Tournament.Status.REGISTRATION,
        )
        Stage.objects.bulk_create(
            Stage(tournament=tournament, order=order, kind=stage.kind, name=stage.name, games=stage.games,
                  seating=stage.seating, players=stage.players, boards_per_table=stage.boards_per_table)
            for order, stage in enumerate(spec.stages, start=1)
        )
    StaffRole.objects.create(user=user, role=StaffRole.Role.ORGANIZER, championship=championship)
    record_change(user, None, Action.CHAMPIONSHIP_CREATED, championship, championship_id=championship.pk,
                  after={"preset": plan.preset, "name": championship.name, "year": plan.year,
                         "tournaments": [t.name for t in plan.tournaments]})
    return championship


AUTOMATIC: dict[str, tuple[str, ...]] = {
    Tournament.Status.RUNNING: (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION),
    Tournament.Status.FINISHED: (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION, Tournament.Status.RUNNING),
}
"""The status a tournament moves to by itself, and the ones it moves from (a closed one is never reopened so)."""


def advance_status(tournament_id: int, status: str, *, user, why: str) -> bool:
    """Move the tournament forward to `status` if it is behind (inside the caller's transaction); True if it moved.

    Part of `results.publishing.publish_game` (running) and `results.sheets.sign_off` (finished),
    which have checked the user's permission; the audit entry names the user whose action moved it.
    """
    tournament = Tournament.objects.select_for_update(of=("self",)).get(pk=tournament_id)
    if tournament.status not in AUTOMATIC[status]:
        return False
    before = tournament.status
    tournament.status = status
    tournament.save(update_fields=["status"])
    record_change(user, tournament.pk, Action.TOURNAMENT_STATUS, tournament, before={"status": before},
                  after={"status": status, "automatic": True}, reason=why)
    announce(tournament.pk)
    return True


def _set_status(tournament_id: int, status: str, *, user, reason: str, action: Action) -> Tournament:
    reason = reason.strip()
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update(of=("self",)).get(pk=tournament_id)
        require_organizer(user, tournament)
        errors = {}
        if not reason:
            errors["reason"] = [_("Give the reason: it is kept in the activity log.")]
        elif len(reason) > REASON_MAX:
            errors["reason"] = [_("At most %(n)d characters.") % {"n": REASON_MAX}]
        if errors:
            raise ValidationError(errors)
        if tournament.status == status:
            return tournament
        before = tournament.status
        tournament.status = status
        tournament.save(update_fields=["status"])
        record_change(user, tournament.pk, action, tournament, before={"status": before},
                      after={"status": status}, reason=reason)
        announce(tournament.pk)
    return tournament


def close_tournament(tournament_id: int, *, user, reason: str) -> Tournament:
    """The organizer ends the tournament by hand (finished), for example when a game is abandoned."""
    return _set_status(tournament_id, Tournament.Status.FINISHED, user=user, reason=reason,
                       action=Action.TOURNAMENT_CLOSED)


def reopen_tournament(tournament_id: int, *, user, reason: str) -> Tournament:
    """Back to in progress if a game has been published, else to registration open."""
    from_games = Tournament.objects.filter(pk=tournament_id, games__status__in=["published", "finished"]).exists()
    status = Tournament.Status.RUNNING if from_games else Tournament.Status.REGISTRATION
    return _set_status(tournament_id, status, user=user, reason=reason, action=Action.TOURNAMENT_REOPENED)
