"""The emails of players' registrations (championships/signup.py decides when): each in the registrant's language,
to the address they typed, greeting them by the typed name only once it reads as a name or the address is
confirmed (`core.text.plain_name`), so the site carries no stranger's message to a stranger.
"""
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from core.mail import queue_email
from core.text import plain_name

from .links import private_link
from .models import Entry, Player, Registration, Tournament
from .places import LIVE, waiting_position


def send(registration: Registration, subject: str, lines: list[str]) -> None:
    """Email the registration's address, greeting them by the name typed unless it does not read as a name (a
    URL, a sentence: `core.text.plain_name`), which the site never carries to an address nobody confirmed."""
    confirmed = registration.confirmed_at is not None
    greeting = (_("Hello %(name)s,") % {"name": registration.name} if confirmed or plain_name(registration.name)
                else _("Hello,"))
    queue_email(registration.email, subject, "\n".join([greeting, "", *lines]), about=[registration.tournament])


def in_language(registration: Registration):
    return translation.override(registration.language or settings.LANGUAGE_CODE)


def link_lines(player: Player) -> list[str]:
    return ["", _("Your tables, games and results, on your phone (this link is yours alone: do not share it):"),
            private_link(player)]


def _status_lines(registration: Registration) -> list[str]:
    values = {"tournament": registration.tournament.name}
    status = registration.status
    if status == Registration.Status.ENTERED:
        return [_("You are entered in %(tournament)s.") % values]
    if status == Registration.Status.WAITING:
        return [_("%(tournament)s is full: you are number %(n)d on the waiting list. When a place frees, it is "
                  "yours and we tell you by email.") % {**values, "n": waiting_position(registration) or 1}]
    if status == Registration.Status.PENDING:
        return [_("The organizers of %(tournament)s approve each registration: we tell you by email when they "
                  "have.") % values]
    if status == Registration.Status.REFUSED:
        lines = [_("Your registration for %(tournament)s was refused.") % values]
        return lines + ([_("Reason: %(reason)s") % {"reason": registration.reason}] if registration.reason else [])
    return []


def tell_status(registration: Registration) -> None:
    """Email the registration's state, with the private link while it is live."""
    with in_language(registration):
        lines = _status_lines(registration)
        if registration.player is not None and registration.status in LIVE:
            lines += link_lines(registration.player)
        send(registration, _("Registration: %(tournament)s") % {"tournament": registration.tournament.name}, lines)


def tell_staff(tournament: Tournament, email: str, language: str) -> None:
    """Someone registered with a staff member's email: they are told by email, not the visitor by the page (001 §5:
    referees and organizers may not play in their own tournament)."""
    with translation.override(language):
        queue_email(email, _("Registration: %(tournament)s") % {"tournament": tournament.name}, "\n".join([
            _("Hello,"), "",
            _("Someone registered for %(tournament)s with this email address. It belongs to the tournament's staff, "
              "and referees and organizers may not play in their own tournament, so no registration was made.")
            % {"tournament": tournament.name}, "",
            _("If you did not register, ignore this email: nothing happens.")]), about=[tournament])


def tell_entered(entry: Entry, tournament: Tournament, language: str) -> None:
    with translation.override(entry.player.language or language):
        queue_email(entry.player.email, _("Registration: %(tournament)s") % {"tournament": tournament.name},
                    "\n".join([_("Hello %(name)s,") % {"name": entry.player.name}, "",
                               _("You are already entered in %(tournament)s.") % {"tournament": tournament.name},
                               *link_lines(entry.player)]), about=[tournament])


def tell_promoted(registration: Registration, player: Player) -> None:
    """A waiting registration took a freed place."""
    tournament = registration.tournament
    with in_language(registration):
        send(registration, _("A place for you: %(tournament)s") % {"tournament": tournament.name}, [
            _("A place in %(tournament)s was freed and it is yours: you are entered.") % {
                "tournament": tournament.name}, *link_lines(player)])
