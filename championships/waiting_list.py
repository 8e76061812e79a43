"""The one way a freed place reaches the waiting list (`place_freed`), and how a confirmed registration takes a
place or waits for one (`take_place_or_wait`). championships/signup.py, attendance/checkin.py,
results/penalties.py and championships/people.py call them; docs/architecture.md lists every way a place frees.
"""
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.actions import Action
from audit.services import record_change
from core.changes import announce

from .eligibility import check_can_enter
from .models import Entry, Player, Registration, Tournament
from .places import games_published, places_left, waiting
from .registration_mail import tell_promoted, tell_status


def refuse_registration(registration: Registration, reason: str, *, user=None, player=None) -> None:
    """The registration is refused, with the reason (saved and audited; the caller tells the registrant)."""
    registration.status, registration.reason = Registration.Status.REFUSED, reason[:500]
    registration.decided_at, registration.decided_by = timezone.now(), user
    registration.save()
    record_change(user, registration.tournament_id, Action.REGISTRATION_REFUSED, registration, player=player,
                  after={"player": registration.name, "status": registration.status}, reason=registration.reason)


def confirmed_player(registration: Registration) -> Player:
    """The player of a confirmed registration (the database holds one for every confirmed status)."""
    if registration.player is None:
        raise ValidationError(_("This registration is not confirmed yet."))
    return registration.player


def take_place_or_wait(registration: Registration, tournament: Tournament) -> None:
    """Enter the player if a place is free (and nobody is waiting before them), else put them on the list."""
    player = confirmed_player(registration)
    existing = Entry.objects.filter(tournament=tournament, player=player).first()
    free = places_left(tournament)
    if existing is not None:
        registration.entry, registration.status = existing, Registration.Status.ENTERED
    elif free is None or (free > 0 and not waiting(tournament).exclude(pk=registration.pk).exists()):
        registration.entry = Entry.objects.create(tournament=tournament, player=player)
        registration.status = Registration.Status.ENTERED
        announce(tournament.pk)
    else:
        registration.status = Registration.Status.WAITING
    registration.decided_at = timezone.now()


def place_freed(tournament_id: int, *, user=None, player: Player | None = None) -> list[Registration]:
    """The one home of "a place freed": every way a place frees calls it inside its own transaction, so no place
    stays free while someone waits (issue 32): an entry removed (`people.remove_entries`), withdrawn, marked
    no-show (`attendance.checkin`) or not admitted (`results.penalties.record_lateness`), a registration cancelled
    (`signup.cancel`) or refused (`signup.refuse`), more places (`signup.change_settings`).

    Until the first game is published, the free places go to the waiting list in its order (`waiting`), as many as
    are free, each with an email. The tournament's row is locked first, so two places freed at once are given one
    after the other: the second sees whom the first entered, and nobody is entered twice or beyond the places.
    `user` or `player`: whoever freed the place (the audit's actor). Returns the promoted."""
    promoted: list[Registration] = []
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update(of=("self",)).select_related("championship").get(
            pk=tournament_id)
        Registration.objects.filter(tournament=tournament, status=Registration.Status.ENTERED,
                                    entry__isnull=True).update(  # the organizers took the entry out
            status=Registration.Status.REFUSED, reason=_("Taken out of the tournament by the organizers."),
            decided_at=timezone.now())
        if games_published(tournament):
            return promoted
        for registration in waiting(tournament).select_for_update(of=("self",)).select_related("player"):
            free = places_left(tournament)
            if free is not None and free < 1:
                break
            registration.tournament = tournament
            waiter = confirmed_player(registration)
            try:
                check_can_enter(waiter, tournament)
            except ValidationError as error:
                refuse_registration(registration, " ".join(error.messages), user=user, player=player)
                tell_status(registration)
                continue
            registration.entry = (Entry.objects.filter(tournament=tournament, player=waiter).first()
                                  or Entry.objects.create(tournament=tournament, player=waiter))
            registration.status, registration.decided_at = Registration.Status.ENTERED, timezone.now()
            registration.save()
            record_change(user, tournament.pk, Action.REGISTRATION_PROMOTED, registration, player=player,
                          after={"player": waiter.name, "status": registration.status,
                                 "entry": registration.entry_id})
            tell_promoted(registration, waiter)
            promoted.append(registration)
        if promoted:
            announce(tournament.pk)
    return promoted
