"""A player's private link, `/me/<token>/`: no account and no password, the link is the key.

A token is long and random (`secrets.token_urlsafe`, 32 bytes); only its SHA-256 digest is stored, so a copy of
the database opens nobody's page, and a token is found by its digest: an index lookup of a value nobody can choose,
which tells nothing about any stored token however long it takes. The digest cannot be turned back into a link, so
each email that carries one makes a new token; a player keeps the newest `KEPT` and older ones stop working. An
organizer's rotation removes them all and makes one new one: every link given before stops working at once.
"""
import hashlib
import re
import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from audit.actions import Action
from audit.services import record_change, record_change_in
from core.mail import queue_email
from core.site import absolute

from .models import Entry, Player, PlayerLink, Tournament
from .permissions import require_organizer

TOKEN_BYTES = 32
"""43 characters once encoded: guessing one is out of reach."""
KEPT = 10
"""Links a player holds at once: the newest, as emails carry them (a confirmation, a notice, a resend…)."""
_TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{20,64}")


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue(player: Player) -> str:
    """A new token for the player's link (stored as its digest); the oldest beyond `KEPT` stop working."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    PlayerLink.objects.create(player=player, digest=digest(token))
    stale = PlayerLink.objects.filter(player=player).values_list("pk", flat=True)[KEPT:]
    PlayerLink.objects.filter(pk__in=list(stale)).delete()
    return token


def player_for(token: str) -> Player | None:
    """The player whose link this is, or None (a token of the wrong shape is not even looked up)."""
    if not isinstance(token, str) or not _TOKEN_SHAPE.fullmatch(token):
        return None
    link = PlayerLink.objects.select_related("player").filter(digest=digest(token)).first()
    return link.player if link else None


def link_id_for(token: str) -> int | None:
    """The stored link a token opens (its id), or None."""
    if not isinstance(token, str) or not _TOKEN_SHAPE.fullmatch(token):
        return None
    return PlayerLink.objects.filter(digest=digest(token)).values_list("pk", flat=True).first()


def private_link(player: Player) -> str:
    """A new link to the player's page, in the language they registered in, for an email."""
    with translation.override(player.language or settings.LANGUAGE_CODE):
        return absolute(reverse("players-me", args=[issue(player)]))


@transaction.atomic
def rotate(player_id: int, *, user, tournament: Tournament) -> tuple[Player, str]:
    """Replace a player's link (a lost phone, a forwarded email): every link given before stops working.

    Only an organizer of a tournament the player is entered in may. Returns the player and the new link, which is
    emailed to them when they have an email (the organizer hands it over otherwise)."""
    require_organizer(user, tournament)
    entry = Entry.objects.select_related("player").filter(tournament=tournament, player_id=player_id).first()
    if entry is None:
        raise ValidationError(_("This player is not entered in %(tournament)s.") % {"tournament": tournament.name})
    player = Player.objects.select_for_update(of=("self",)).get(pk=player_id)
    removed = PlayerLink.objects.filter(player=player).delete()[0]
    link = private_link(player)
    if player.email:
        with translation.override(player.language or settings.LANGUAGE_CODE):
            queue_email(player.email, _("Your new private link"), "\n".join([
                _("Hello %(name)s,") % {"name": player.name}, "",
                _("The organizers of %(tournament)s replaced your private link: the one you had no longer works. "
                  "Your new link (yours alone: do not share it):") % {"tournament": tournament.name}, link]),
                        about=[tournament])
    record_change(user, tournament.pk, Action.PLAYER_LINK_ROTATED, player,
                  after={"player": player.name, "links_removed": removed, "emailed": bool(player.email)})
    return player, link


def send_again(email: str) -> bool:
    """Email a new link to whoever plays with this email (entered, or registered and not refused); nothing for an
    email no player has. Runs in the background (`championships.tasks`), so the page that asked answers the same
    whoever the email belongs to. True when an email went out."""
    player = Player.objects.filter(email__iexact=email.strip()).first()
    if player is None:
        return False
    tournaments = set(player.entries.values_list("tournament_id", flat=True)) | set(
        player.registrations.exclude(status__in=["refused", "cancelled"]).values_list("tournament_id", flat=True))
    if not tournaments:
        return False
    with translation.override(player.language or settings.LANGUAGE_CODE):
        link = absolute(reverse("players-me", args=[issue(player)]))
        queue_email(player.email, _("Your private link"), "\n".join([
            _("Hello %(name)s,") % {"name": player.name}, "",
            _("Your tables, games and results, on your phone (this link is yours alone: do not share it):"), link, "",
            _("Someone asked for it on the site, probably you. If it was not you, nothing changes: the links you "
              "had keep working.")]), about=Tournament.objects.filter(pk__in=tournaments))
    record_change_in(None, tournaments, Action.PLAYER_LINK_SENT, player, player=player,
                     after={"player": player.name})
    return True
