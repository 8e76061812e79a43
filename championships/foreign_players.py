"""Players of other championships: found only by what an organizer already knows, within a limit, audited where the
player plays; entered with an invitation the player confirms, until which the organizers see of their record only
what they typed (`permissions.personal_details`).

Players are shared by the whole deployment, and the find form, a list's rows and the API's import all match a typed
email, or name and date of birth, against every player: each is a lookup. A lookup that finds a player the organizer
could not see yet costs one of `FINDS` (the find form costs one whatever it finds), is written in the organizer's
tournament and in the found player's own tournaments, so their organizers see who looks their players up.
"""
import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from audit.actions import Action
from audit.services import record_change, record_change_in
from core.mail import queue_email
from core.ratelimit import RateLimit

from . import links
from .models import Entry, EntryInvitation, Player, StaffRole, Tournament
from .permissions import officiated_tournaments, require_organizer, visible_players
from .selectors import find_player
from .services import enter_player

FINDS = RateLimit("player-find", 30, 3600)
"""Lookups per organizer account an hour: the find form's, and each registered player of another championship a list
or the API names. Entering one's own players costs nothing; a federation entering the few players who also play
elsewhere stays far below it, while guessing birth dates (a few hundred tries) or naming thousands of emails does
not get past it."""


@dataclass(frozen=True)
class Typed:
    """What the organizer typed to find a player: their email, or their name and date of birth."""

    email: str = ""
    date_of_birth: date | None = None

    @property
    def by(self) -> str:
        return "email" if self.email else "name"


def _minutes(seconds: int) -> int:
    return max(1, math.ceil(seconds / 60))


def spend(user, n: int) -> None:
    """Count `n` lookups against the user's hourly allowance, or refuse them all with a message when they do not fit
    (superusers are not limited: they see every player anyway)."""
    if n <= 0 or user.is_superuser:
        return
    key = str(user.pk)
    if n == 1:
        if wait := FINDS.hit(key):
            raise ValidationError(ngettext(
                "You have looked up %(limit)d players of other championships this hour, the most allowed: try again "
                "in %(minutes)d minute.",
                "You have looked up %(limit)d players of other championships this hour, the most allowed: try again "
                "in %(minutes)d minutes.", _minutes(wait)) % {"limit": FINDS.limit, "minutes": _minutes(wait)})
        return
    left = FINDS.limit - FINDS.used(key)
    if n > left:
        raise ValidationError(ngettext(
            "This names %(n)d players registered by other championships, and you may look up %(left)d more this "
            "hour (at most %(limit)d an hour): enter them later, or a few at a time.",
            "This names %(n)d players registered by other championships, and you may look up %(left)d more this "
            "hour (at most %(limit)d an hour): enter them later, or a few at a time.", n)
            % {"n": n, "left": max(left, 0), "limit": FINDS.limit})
    for _n in range(n):
        FINDS.hit(key)


def unseen(user, players: Iterable[Player]) -> set[int]:
    """Ids of these players whose record the user may not read (`permissions.visible_players`)."""
    ids = {player.pk for player in players}
    if not ids or user.is_superuser:
        return set()
    return ids - set(visible_players(user).filter(pk__in=ids).values_list("pk", flat=True))


def _elsewhere(player: Player, tournament: Tournament, user) -> set[int]:
    """The player's tournaments that are not the user's: where their own organizers are told."""
    return set(Entry.objects.filter(player=player).exclude(tournament=tournament)
               .exclude(tournament__in=officiated_tournaments(user, StaffRole.Role.ORGANIZER))
               .values_list("tournament_id", flat=True))


def _log_lookup(user, tournament: Tournament, player: Player | None, by: str, *, elsewhere: bool) -> None:
    """In the tournament looked up from; and, for a player the user could not see, in the player's own."""
    record_change(user, tournament.pk, Action.PLAYER_LOOKED_UP, player or tournament,
                  after={"by": by, "found": player is not None, **({"player": player.name} if player else {})})
    if player is not None and elsewhere and (where := _elsewhere(player, tournament, user)):
        record_change_in(user, where, Action.PLAYER_LOOKED_UP_ELSEWHERE, player,
                         after={"player": player.name, "by": by, "tournament": tournament.name})


def look_up(tournament: Tournament, *, user, typed: Typed, name: str = "") -> Player | None:
    """The find form: one lookup counted and logged (found or not), then the player with that exact email, or that
    name and date of birth, or None. Logged in a transaction of its own, so a refused entry keeps it."""
    require_organizer(user, tournament)
    spend(user, 1)
    player = find_player(email=typed.email, name=name, born=typed.date_of_birth)
    with transaction.atomic():
        _log_lookup(user, tournament, player, typed.by, elsewhere=player is not None and bool(unseen(user, [player])))
    return player


def look_up_list(tournament: Tournament, matched: dict[int, tuple[Player, Typed]], *, user) -> set[int]:
    """A list's rows (line → the registered player it names, what it typed) counted and logged as lookups where the
    user could not see the player yet; refused whole past the allowance. Returns those players' ids."""
    require_organizer(user, tournament)
    foreign = unseen(user, (player for player, _typed in matched.values()))
    spend(user, len(foreign))
    with transaction.atomic():
        for player, typed in matched.values():
            if player.pk in foreign:
                _log_lookup(user, tournament, player, typed.by, elsewhere=True)
    return foreign


@transaction.atomic
def enter(player: Player, tournament: Tournament, *, user, typed: Typed,
          foreign: bool | None = None) -> tuple[Entry, bool]:
    """Enter a player found by what the user typed. One whose record the user could not read yet (`foreign`, found
    out here unless given: a list tells it from before its new players were made) is invited to confirm (by email
    when they have one, and on their own page); until then `personal_details` shows the user only what they typed,
    and the player's own tournaments log that another championship entered them. Returns the entry and whether it
    awaits the player."""
    foreign = bool(unseen(user, [player])) if foreign is None else foreign
    entry = enter_player(player, tournament, user=user)
    if foreign:
        EntryInvitation.objects.create(entry=entry, invited_by=user, email=typed.email,
                                       date_of_birth=typed.date_of_birth)
        record_change(user, tournament.pk, Action.ENTRY_INVITED, entry, after={"player": player.name, "by": typed.by})
        if where := _elsewhere(player, tournament, user):
            record_change_in(user, where, Action.PLAYER_ENTERED_ELSEWHERE, player,
                             after={"player": player.name, "tournament": tournament.name})
        if player.email:
            _invite(entry, typed)
    return entry, foreign


def _invite(entry: Entry, typed: Typed) -> None:
    player, tournament = entry.player, entry.tournament
    with translation.override(player.language or settings.LANGUAGE_CODE):
        found = (_("finding you by your email") if typed.by == "email"
                 else _("finding you by your name and date of birth"))
        queue_email(player.email, _("You were entered in %(tournament)s") % {"tournament": tournament.name},
                    "\n".join([
                        _("Hello %(name)s,") % {"name": player.name}, "",
                        _("The organizers of %(tournament)s entered you in it, %(found)s. They see your name and "
                          "country, and of the rest only what they typed. To let them see your details as "
                          "registered (your email and date of birth, which they need to write to you and check "
                          "your age), confirm on your own page:") % {"tournament": tournament.name, "found": found},
                        links.private_link(player), "",
                        _("If you do not play there, do not confirm, and tell them: nothing more is shown to them.")]),
                    about=[tournament])


def awaiting(player: Player) -> list[EntryInvitation]:
    """The player's entries awaiting their confirmation, for their own page."""
    return list(EntryInvitation.objects.filter(entry__player=player, confirmed_at__isnull=True)
                .select_related("entry__tournament__championship").order_by("created_at", "pk"))


def confirm(entry_id: int, *, player: Player, token: str) -> EntryInvitation:
    """The player agrees that the organizers of the entry's tournament see their record. Only their own word counts:
    a link they received (`links.sent_to_player`), never one an organizer was shown."""
    if not links.sent_to_player(token):
        raise ValidationError(_("Confirm with the link from your email: this one was handed to you by organizers."))
    with transaction.atomic():
        invitation = (EntryInvitation.objects.select_for_update(of=("self",)).select_related("entry__tournament")
                      .filter(entry_id=entry_id, entry__player=player).first())
        if invitation is None:
            raise ValidationError(_("There is no entry of yours to confirm here."))
        if invitation.confirmed_at is None:
            invitation.confirmed_at = timezone.now()
            invitation.save(update_fields=["confirmed_at"])
            record_change(None, invitation.entry.tournament_id, Action.ENTRY_CONFIRMED, invitation.entry,
                          player=player, after={"player": player.name})
    return invitation


def removed(entry: Entry, *, user) -> None:
    """An entry made from another championship taken out again: its player's own tournaments log it too, so entering
    and removing leaves a trace where the player belongs."""
    if EntryInvitation.objects.filter(entry=entry).exists() and (
            where := _elsewhere(entry.player, entry.tournament, user)):
        record_change_in(user, where, Action.PLAYER_REMOVED_ELSEWHERE, entry.player,
                         after={"player": entry.player.name, "tournament": entry.tournament.name})
