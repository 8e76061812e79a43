"""Penalties recorded by referees: lateness, warnings, VP deductions and disqualification (docs/rules.md §4)."""
import uuid

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from audit.services import record_change
from championships.models import Entry
from championships.permissions import require_official
from scheduling.models import Game

from .models import Penalty
from .signals import announce_after_commit

DEDUCTING = (Penalty.Kind.LATENESS, Penalty.Kind.VP_DEDUCTION)


def penalty_json(penalty: Penalty) -> dict:
    return {"entry": penalty.entry_id, "player": penalty.entry.player.name, "kind": penalty.kind,
            "vp": penalty.vp, "game": penalty.game.number if penalty.game else None, "reason": penalty.reason}


def record_penalty(entry_id: int, *, user, kind: str, reason: str, vp: int = 0, game: Game | None = None,
                   request_key: uuid.UUID | None = None) -> Penalty:
    """Record a penalty; a disqualification also ends the player's tournament (listed last).

    A form sent twice (a double tap, a retry after a dropped connection) carries the same
    `request_key` and records the penalty once.
    """
    with transaction.atomic():
        entry = Entry.objects.select_for_update(of=("self",)).select_related("tournament", "player").get(pk=entry_id)
        tournament = entry.tournament
        require_official(user, tournament)
        if request_key is not None and (done := Penalty.objects.filter(request_key=request_key).first()):
            return done
        errors = {}
        if kind not in Penalty.Kind.values:
            errors["kind"] = [_("Choose a kind of penalty.")]
        if not reason.strip():
            errors["reason"] = [_("Give the reason for the penalty.")]
        if kind in DEDUCTING and vp < 1:
            errors["vp"] = [_("A VP deduction is at least 1 VP.")]
        if kind not in DEDUCTING and vp:
            errors["vp"] = [_("Only lateness and VP deductions take VP off.")]
        if game is not None and game.tournament_id != tournament.pk:
            errors["game"] = [_("That game belongs to another tournament.")]
        if kind == Penalty.Kind.DISQUALIFICATION and entry.status == Entry.Status.DISQUALIFIED:
            errors["kind"] = [_("%(player)s is already disqualified.") % {"player": entry.player.name}]
        if errors:
            raise ValidationError(errors)
        penalty = Penalty.objects.create(tournament=tournament, entry=entry, kind=kind, vp=vp,
                                         reason=reason.strip(), game=game, recorded_by=user, request_key=request_key)
        before = None
        if kind == Penalty.Kind.DISQUALIFICATION:
            before = {"status": entry.status}
            entry.status = Entry.Status.DISQUALIFIED
            entry.save(update_fields=["status"])
        record_change(user, tournament.pk, f"penalty.{kind}", penalty, before=before, after=penalty_json(penalty),
              reason=penalty.reason)
        announce_after_commit(tournament.pk)
    return penalty
