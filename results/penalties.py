"""Penalties recorded by referees (docs/rules.md §4, Penalties): lateness, warnings, collusion, VP deductions,
disqualification; and the referee's ruling when a player is warned for collusion again.

The rules come from seed 001 §6 (national championships) and seed 004 §1.2.4, §1.2.5, §3.0.13
(world championship):

- Late arrival, where the ruleset has the rule (`Ruleset.lateness`: national, 001 §6; the world and
  Lord of Catan rules have none): up to 15 minutes after the tournament's official start costs
  exactly 1 VP, once per player; a player more than 15 minutes late is not admitted, unless they
  have already played (`record_lateness` applies this from the minutes; docs/rules.md I-38).
- VP deductions: only those the ruleset has (`Ruleset.vp_deductions`, `results.deductions`): none under the
  national and world rules, the 2 points for arguing a ruling and the fine for cheating under Lord of Catan (003).
- Disqualification: the ruleset says until when, by ground (`Ruleset.disqualification`, docs/rules.md
  I-40; `results.disqualification`).
- Collusion: a warning to both players of the incident. A repeated incident may lead to
  disqualification; the referee decides (`rule_on_collusion`) and the decision is recorded either way.

Every write locks the player's entry (both players' for collusion), so two referees or a double
tap never record a penalty twice; a form resubmitted with the same `request_key` records it once,
and a key already used for a different penalty is refused.
"""
import uuid
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from audit.actions import Action
from audit.services import record_change
from championships.models import ACTIVE_STATUSES, Entry
from championships.permissions import require_official, require_organizer
from championships.waiting_list import place_freed
from core.changes import announce
from engines.rulesets import LatenessRule, ruleset_for
from scheduling.models import Game, Seat

from .deductions import deduction_errors
from .disqualification import check_disqualification_timing
from .limits import length_errors
from .models import CollusionRuling, Penalty
from .selectors import REPEATED_COLLUSION, collusion_warnings, games_played

DEDUCTING = (Penalty.Kind.LATENESS, Penalty.Kind.VP_DEDUCTION)
MAX_MINUTES_LATE = 24 * 60
ACTIONS: dict[str, Action] = {
    Penalty.Kind.LATENESS: Action.PENALTY_LATENESS, Penalty.Kind.WARNING: Action.PENALTY_WARNING,
    Penalty.Kind.COLLUSION: Action.PENALTY_COLLUSION, Penalty.Kind.VP_DEDUCTION: Action.PENALTY_VP_DEDUCTION,
    Penalty.Kind.DISQUALIFICATION: Action.PENALTY_DISQUALIFICATION,
}
"""The change recorded for each kind of penalty."""


class ReusedRequestKey(ValidationError):
    """The form's key already recorded a different penalty: nothing was recorded now."""


def penalty_json(penalty: Penalty, **extra) -> dict:
    data = {"entry": penalty.entry_id, "player": penalty.entry.player.name, "kind": penalty.kind,
            "vp": penalty.vp, "game": penalty.game.number if penalty.game else None, "reason": penalty.reason}
    if penalty.ground:
        data["ground"] = penalty.ground
    if penalty.deduction:
        data["deduction"] = penalty.deduction
    return {**data, **extra}


def _locked_entries(*entry_ids: int) -> dict[int, Entry]:
    """The entries, locked in id order (two referees locking the same pair never deadlock)."""
    rows = (Entry.objects.select_for_update(of=("self",)).select_related("tournament", "player")
            .filter(pk__in=entry_ids).order_by("pk"))
    entries = {entry.pk: entry for entry in rows}
    missing = [pk for pk in entry_ids if pk not in entries]
    if missing:
        raise Entry.DoesNotExist(f"no entry {missing[0]}")
    return entries


def _partner_id(penalty: Penalty) -> int | None:
    if penalty.incident is None:
        return None
    return (Penalty.objects.filter(incident=penalty.incident).exclude(pk=penalty.pk)
            .values_list("entry_id", flat=True).first())


def _already_done(request_key: uuid.UUID | None, **wanted) -> Penalty | None:
    """The penalty this form already recorded, if it is the same one; a different one is refused."""
    if request_key is None:
        return None
    done = Penalty.objects.select_related("entry__player").filter(request_key=request_key).first()
    if done is None:
        return None
    recorded = {"entry_id": done.entry_id, "kind": done.kind, "vp": done.vp, "game_id": done.game_id,
                "ground": done.ground, "deduction": done.deduction, "partner_id": _partner_id(done),
                "reason": done.reason}
    if any(recorded[key] != value for key, value in wanted.items()):
        raise _reused(done)
    return done


def _reused(done: Penalty) -> ReusedRequestKey:
    return ReusedRequestKey(
        _("This form was already used to record a penalty for %(player)s (%(kind)s). Nothing was recorded "
          "now: check the values and submit again to record this as a new penalty.")
        % {"player": done.entry.player.name, "kind": done.get_kind_display()})


def record_penalty(entry_id: int, *, user, kind: str, reason: str, vp: int = 0, game: Game | None = None,
                   ground: str = "", deduction: str = "", partner_id: int | None = None,
                   request_key: uuid.UUID | None = None) -> Penalty:
    """Record a penalty; a disqualification also ends the player's tournament (listed last).

    A VP deduction names which of the ruleset's deductions it is (`deduction`, a key of
    `Ruleset.vp_deductions`) and is refused where the rules have none, or at another VP than that one's
    (`results.deductions`).

    `ground` (disqualifications only) is `rules` or `conduct`; unless the ruleset allows it at any time,
    a disqualification names its game and is refused once the ruleset's moment has passed at the
    player's table in that game (`results.disqualification`).
    A collusion warning names the other player (`partner_id`): both are warned, one incident, and
    the returned penalty is this player's. A late arrival costs the ruleset's VP, once per player and
    tournament, and only where the ruleset has the rule (`record_lateness` applies it from the minutes).
    A form sent twice (a double tap, a retry after a dropped connection) carries the same `request_key`
    and records the penalty once.
    """
    reason = reason.strip()
    with transaction.atomic():
        collusion = kind == Penalty.Kind.COLLUSION and partner_id is not None and partner_id != entry_id
        entries = _locked_entries(entry_id, *([partner_id] if collusion and partner_id is not None else []))
        entry = entries[entry_id]
        tournament = entry.tournament
        require_official(user, tournament)
        done = _already_done(request_key, entry_id=entry_id, kind=kind, vp=vp, game_id=game.pk if game else None,
                             ground=ground, deduction=deduction, partner_id=partner_id, reason=reason)
        if done is not None:
            return done
        errors = {}
        if kind not in Penalty.Kind.values:
            errors["kind"] = [_("Choose a kind of penalty.")]
        if not reason:
            errors["reason"] = [_("Give the reason for the penalty.")]
        errors.update(length_errors(reason=reason))
        if kind == Penalty.Kind.LATENESS:
            _check_lateness(entry, game, errors, vp=vp)
        elif kind == Penalty.Kind.VP_DEDUCTION:
            errors.update(deduction_errors(tournament, deduction, vp))
        elif kind not in DEDUCTING and vp:
            errors["vp"] = [_("Only lateness and VP deductions take VP off.")]
        if deduction and kind != Penalty.Kind.VP_DEDUCTION:
            errors["deduction"] = [_("Only a VP deduction names which deduction it is.")]
        if game is not None and game.tournament_id != tournament.pk:
            errors["game"] = [_("That game belongs to another tournament.")]
        if kind == Penalty.Kind.DISQUALIFICATION:
            if entry.status == Entry.Status.DISQUALIFIED:
                errors["kind"] = [_("%(player)s is already disqualified.") % {"player": entry.player.name}]
            if ground not in Penalty.Ground.values:
                errors["ground"] = [_("Say why %(player)s is disqualified: breaking the game's rules, or the code "
                                      "of conduct.") % {"player": entry.player.name}]
            elif "game" not in errors:
                check_disqualification_timing(entry, game, ground, errors)
        elif ground:
            errors["ground"] = [_("Only a disqualification has a ground.")]
        if kind == Penalty.Kind.COLLUSION:
            _check_collusion(entries, entry, partner_id, game, errors)
        elif partner_id is not None:
            errors["partner"] = [_("Only a collusion warning names a second player.")]
        if errors:
            raise ValidationError(errors)
        return _create(entries, entry, user=user, kind=kind, vp=vp, reason=reason, game=game, ground=ground,
                       deduction=deduction, partner_id=partner_id if kind == Penalty.Kind.COLLUSION else None,
                       request_key=request_key)


def _check_collusion(entries: dict[int, Entry], entry: Entry, partner_id: int | None, game: Game | None,
                     errors: dict) -> None:
    """Both players of the incident are warned (seed 001 §6, 004 §3.0.13): the other must be named."""
    if partner_id is None:
        errors["partner"] = [_("Name the other player of the collusion: both players get a warning.")]
        return
    if partner_id == entry.pk:
        errors["partner"] = [_("Collusion takes two different players.")]
        return
    partner = entries[partner_id]
    if partner.tournament_id != entry.tournament_id:
        errors["partner"] = [_("Both players must be entered in this tournament.")]
        return
    if game is not None and game.tournament_id == entry.tournament_id:
        tables = dict(Seat.objects.filter(game=game, entry__in=[entry.pk, partner_id])
                      .values_list("entry_id", "table_id"))
        if len(tables) < 2 or tables[entry.pk] != tables[partner_id]:
            errors["partner"] = [_("%(first)s and %(second)s did not play at the same table in game %(n)d.")
                                 % {"first": entry.player.name, "second": partner.player.name, "n": game.number}]


def lateness_rule(tournament) -> LatenessRule | None:
    """The tournament's late-arrival rule from the registry; None where its rules have none."""
    return ruleset_for(tournament.ruleset).lateness


def _check_lateness(entry: Entry, game: Game | None, errors: dict, *, vp: int | None = None) -> None:
    """A late arrival exists only under a ruleset with the rule, counts from the official start, and once.

    001 §6 ties lateness to "the official starting time of the tournament": one deduction per player, never
    one per game (docs/rules.md I-38, changed).
    """
    rule = lateness_rule(entry.tournament)
    if rule is None:
        errors["kind"] = [_("The rules of %(tournament)s have no late-arrival penalty.")
                          % {"tournament": entry.tournament.name}]
        return
    if vp is not None and vp != rule.vp:
        errors["vp"] = [_("A late arrival costs exactly %(vp)d VP (up to %(minutes)d minutes late; later, the player "
                          "is not admitted).") % {"vp": rule.vp, "minutes": rule.admitted_minutes}]
    if game is not None:
        errors["game"] = [_("A late arrival counts once, from the tournament's official start, not per game: leave "
                            "the game empty.")]
    if Penalty.objects.filter(entry=entry, kind=Penalty.Kind.LATENESS, withdrawn_at__isnull=True).exists():
        errors["kind"] = [_("A late arrival of %(player)s is already recorded: it counts once per tournament.")
                          % {"player": entry.player.name}]


def _create(entries: dict[int, Entry], entry: Entry, *, user, kind: str, vp: int, reason: str, game: Game | None,
            ground: str = "", deduction: str = "", partner_id: int | None = None,
            request_key: uuid.UUID | None = None, extra: dict | None = None, before: dict | None = None) -> Penalty:
    """Write the validated penalty (both rows of a collusion incident), its audit entry and its effect."""
    tournament = entry.tournament
    incident = uuid.uuid4() if partner_id is not None else None
    penalty = Penalty.objects.create(tournament=tournament, entry=entry, kind=kind, vp=vp, reason=reason, game=game,
                                     ground=ground, deduction=deduction, incident=incident, recorded_by=user,
                                     request_key=request_key)
    extra = dict(extra or {})
    if partner_id is not None:
        partner = entries[partner_id]
        Penalty.objects.create(tournament=tournament, entry=partner, kind=kind, reason=reason, game=game,
                               incident=incident, recorded_by=user)
        extra.update(other_entry=partner.pk, other=partner.player.name, incident=str(incident))
    if kind == Penalty.Kind.DISQUALIFICATION:
        before = {**(before or {}), "status": entry.status}
        entry.status = Entry.Status.DISQUALIFIED
        entry.save(update_fields=["status"])
        extra["status"] = entry.status
    record_change(user, tournament.pk, ACTIONS[kind], penalty, before=before,
                  after=penalty_json(penalty, **extra), reason=penalty.reason)
    announce(tournament.pk, results=True)
    return penalty


@dataclass(frozen=True)
class Lateness:
    """What `record_lateness` did: a 1-VP penalty, refused admission, or nothing (on time)."""

    entry: Entry
    minutes: int
    penalty: Penalty | None = None
    not_admitted: bool = False


def admission_closed(entry: Entry) -> str | None:
    """Why the player can no longer be refused admission (they have played), or None while it is still open.

    001 §6 decides admission at the start ("late comers cannot participate"). A player who has played is in the
    standings; making them not admitted would drop them from qualification while their games stay there.
    """
    played = games_played(entry.pk)
    if not played:
        return None
    return ngettext(
        "%(player)s has already played (game %(games)s), so they can no longer be refused admission: being not "
        "admitted would drop them from qualification while their games stay in the standings.",
        "%(player)s has already played (games %(games)s), so they can no longer be refused admission: being not "
        "admitted would drop them from qualification while their games stay in the standings.",
        len(played)) % {"player": entry.player.name, "games": ", ".join(map(str, played))}


def record_lateness(entry_id: int, minutes: int, *, user, game: Game | None = None, reason: str = "",
                    request_key: uuid.UUID | None = None) -> Lateness:
    """Apply the ruleset's late-arrival rule (001 §6) to a player who arrived `minutes` after the official start.

    "Players will have 1 victory point deducted from their total scores for the first 15 minutes of
    tardiness. The tournament will start after 15 minutes from official time and late comers cannot
    participate." So: 0 minutes, nothing; 1–15, `Entry.minutes_late` is set and the 1-VP late-arrival
    penalty recorded, once per player (a `game` is refused: lateness counts from the tournament's start);
    more than 15, the entry becomes not admitted (audited), unless the player has already played: then
    it is refused, since a not-admitted player leaves qualification while their games stay in the
    standings. Refused under a ruleset without the rule (004, 003). `reason` defaults to the minutes.
    """
    with transaction.atomic():
        entry = _locked_entries(entry_id)[entry_id]
        require_official(user, entry.tournament)
        errors = {}
        if not 0 <= minutes <= MAX_MINUTES_LATE:
            errors["minutes"] = [_("Give the minutes late as a number from 0 to %(max)d.") % {"max": MAX_MINUTES_LATE}]
        if game is not None and game.tournament_id != entry.tournament_id:
            errors["game"] = [_("That game belongs to another tournament.")]
        errors.update(length_errors(reason=reason.strip()))
        rule = lateness_rule(entry.tournament)
        if rule is None:
            _check_lateness(entry, game, errors)
        if errors:
            raise ValidationError(errors)
        assert rule is not None  # without the rule, _check_lateness refused the late arrival
        if minutes == 0:
            return Lateness(entry, minutes)
        reason = reason.strip() or _("%(minutes)d minutes late") % {"minutes": minutes}
        if rule.admits(minutes):
            done = _already_done(request_key, entry_id=entry.pk, kind=Penalty.Kind.LATENESS, game_id=None)
            if done is not None:
                if entry.minutes_late != minutes:
                    raise _reused(done)
                return Lateness(entry, minutes, penalty=done)
            if entry.status not in ACTIVE_STATUSES:
                raise ValidationError({"entry": [_("%(player)s is %(status)s: no late-arrival penalty applies.") % {
                    "player": entry.player.name, "status": entry.get_status_display()}]})
            _check_lateness(entry, game, errors)
            if errors:
                raise ValidationError(errors)
            before: dict[str, object] = {"minutes_late": entry.minutes_late}
            entry.minutes_late = minutes
            entry.save(update_fields=["minutes_late"])
            penalty = _create({entry.pk: entry}, entry, user=user, kind=Penalty.Kind.LATENESS, vp=rule.vp,
                              reason=reason, game=None, request_key=request_key, extra={"minutes": minutes},
                              before=before)
            return Lateness(entry, minutes, penalty=penalty)
        if request_key is not None and (done := Penalty.objects.filter(request_key=request_key).first()):
            raise _reused(done)  # refusing admission records no penalty: the key belongs to another one
        if entry.status == Entry.Status.NOT_ADMITTED and entry.minutes_late == minutes:
            return Lateness(entry, minutes, not_admitted=True)  # the same report again
        if entry.status not in ACTIVE_STATUSES:
            raise ValidationError({"entry": [_("%(player)s is %(status)s: admission is no longer decided.")
                                             % {"player": entry.player.name, "status": entry.get_status_display()}]})
        _check_lateness(entry, game, errors)
        if closed := admission_closed(entry):
            errors["minutes"] = [closed]
        if errors:
            raise ValidationError(errors)
        before = {"status": entry.status, "minutes_late": entry.minutes_late}
        entry.status = Entry.Status.NOT_ADMITTED
        entry.minutes_late = minutes
        entry.save(update_fields=["status", "minutes_late"])
        record_change(user, entry.tournament_id, Action.ENTRY_NOT_ADMITTED, entry, before=before,
                      after={"player": entry.player.name, "status": entry.status, "minutes_late": minutes},
                      reason=reason)
        announce(entry.tournament_id, results=True)
        place_freed(entry.tournament_id, user=user)  # before the first game, the place goes to the waiting list
        return Lateness(entry, minutes, not_admitted=True)


def rule_on_collusion(warning_id: int, *, user, disqualify: bool, reason: str) -> CollusionRuling:
    """Record the referee's decision on a repeated collusion warning, either way (seed 001 §6).

    Seed 001 §6: "In case of a repeated incident, a disqualification decision can be taken. The
    referee's ruling is final"; seed 004 §1.2.5: "Further actions may result in a disqualification".
    A disqualification for collusion is for breaching the code of conduct (004 §1.2.4 counts
    "intentionally causing or promoting another player to win" among its violations): at any time under
    the world rules, within the warning's game under the national ones (001 §6). The same decision sent
    twice is recorded once; a different one is refused.
    """
    reason = reason.strip()
    with transaction.atomic():
        warning = Penalty.objects.select_related("game").get(pk=warning_id, kind=Penalty.Kind.COLLUSION)
        entry = _locked_entries(warning.entry_id)[warning.entry_id]
        require_official(user, entry.tournament)
        existing = CollusionRuling.objects.filter(warning=warning).first()
        if existing is not None:
            if bool(existing.disqualification_id) == disqualify:
                return existing
            raise ValidationError(_("The decision on this collusion warning of %(player)s is already recorded.")
                                  % {"player": entry.player.name})
        count = collusion_warnings(entry, up_to=warning)
        errors = {}
        if count < REPEATED_COLLUSION:
            errors["__all__"] = [_("This is the first collusion warning of %(player)s: no decision is called for.")
                                 % {"player": entry.player.name}]
        elif entry.status == Entry.Status.DISQUALIFIED:
            errors["__all__"] = [_("%(player)s is already disqualified.") % {"player": entry.player.name}]
        if not reason:
            errors["reason"] = [_("Give the reason for the decision.")]
        errors.update(length_errors(reason=reason))
        if disqualify and not errors:
            timing: dict = {}
            check_disqualification_timing(entry, warning.game, Penalty.Ground.CONDUCT, timing)
            errors.update({"__all__": [m for messages in timing.values() for m in messages]} if timing else {})
        if errors:
            raise ValidationError(errors)
        disqualification = None
        if disqualify:
            disqualification = _create({entry.pk: entry}, entry, user=user, kind=Penalty.Kind.DISQUALIFICATION,
                                       vp=0, reason=reason, game=warning.game, ground=Penalty.Ground.CONDUCT,
                                       extra={"collusion_warnings": count})
        ruling = CollusionRuling.objects.create(warning=warning, disqualification=disqualification, reason=reason,
                                                decided_by=user)
        record_change(user, entry.tournament_id, Action.PENALTY_COLLUSION_RULING, ruling, after={
            "entry": entry.pk, "player": entry.player.name, "collusion_warnings": count, "disqualified": disqualify,
            "game": warning.game.number if warning.game else None}, reason=reason)
    return ruling


def withdraw_penalty(penalty_id: int, *, user, reason: str) -> Penalty:
    """An organizer withdraws a mistaken penalty: kept on record with who, when and why, it no longer counts.

    A withdrawn late arrival gives the VP back (and clears the minutes late); a withdrawn
    disqualification lets the player play on. Withdrawing one collusion warning withdraws its
    incident's other one too. Withdrawing twice changes nothing.
    """
    reason = reason.strip()
    with transaction.atomic():
        penalty = Penalty.objects.select_related("entry__player", "game", "tournament").get(pk=penalty_id)
        entry = _locked_entries(penalty.entry_id)[penalty.entry_id]
        require_organizer(user, penalty.tournament)
        penalty = Penalty.objects.select_for_update(of=("self",)).select_related("entry__player", "game").get(
            pk=penalty_id)
        if penalty.withdrawn_at is not None:
            return penalty
        errors = {}
        if not reason:
            errors["reason"] = [_("Give the reason for withdrawing the penalty.")]
        errors.update(length_errors(reason=reason))
        if errors:
            raise ValidationError(errors)
        now = timezone.now()
        withdrawn = Penalty.objects.filter(Q(pk=penalty.pk) | Q(incident=penalty.incident, incident__isnull=False),
                                           withdrawn_at__isnull=True)
        withdrawn.update(withdrawn_at=now, withdrawn_by=user, withdrawal_reason=reason)
        before: dict[str, object] = {"withdrawn": False}
        after: dict[str, object] = {"withdrawn": True}
        if penalty.kind == Penalty.Kind.LATENESS and entry.minutes_late and not Penalty.objects.filter(
                entry=entry, kind=Penalty.Kind.LATENESS, withdrawn_at__isnull=True).exists():
            before["minutes_late"], after["minutes_late"] = entry.minutes_late, 0
            entry.minutes_late = 0
            entry.save(update_fields=["minutes_late"])
        if penalty.kind == Penalty.Kind.DISQUALIFICATION and entry.status == Entry.Status.DISQUALIFIED:
            before["status"] = entry.status
            entry.status = Entry.Status.CHECKED_IN if entry.checked_in_at else Entry.Status.REGISTERED
            entry.save(update_fields=["status"])
            after["status"] = entry.status
        penalty.refresh_from_db()
        record_change(user, penalty.tournament_id, Action.PENALTY_WITHDRAWN, penalty, before=before,
                      after=penalty_json(penalty, **after, withdrawn_kind=penalty.kind), reason=reason)
        announce(penalty.tournament_id, results=True)
    return penalty
