"""A player's private link, `/me/<token>/`: no account and no password, the link is the key.

A token is long (32 bytes, 43 characters) and only its SHA-256 digest is stored, so a copy of the database opens
nobody's page, and a token is found by its digest: an index lookup of a value nobody can choose, which tells nothing
about any stored token however long it takes.

A player has one link that emails carry, the same in every email (a confirmation, a notice, a place freed, a link
asked for again on `/me/`): its token is derived from a random `PlayerLink.secret` and the site's `SECRET_KEY`
(`salted_hmac`), so the site can send it again without storing it, and a copy of the database without the
settings still opens nothing. Sending it again therefore never invalidates a link a player bookmarked, whoever
asks and however often, and stored links never grow with the asking: one per player, plus the links made before
this scheme (random tokens, kept working, never sent again) and one per change of `SECRET_KEY` (the old link keeps
working; the next email carries a new one). Only an organizer's rotation (`rotate`) removes them all and makes
the one new one: every link given before stops working at once. It is emailed to the player; only an organizer of
every tournament the player is in is shown it (a player without email), and such a link acts only in the
tournaments that organizer runs (`may_act`) and is never sent again.
"""
import base64
import hashlib
import re
import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import translation
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from audit.actions import Action
from audit.services import record_change_in
from core.emails import same_email
from core.mail import queue_email
from core.site import absolute

from .models import Entry, Player, PlayerLink, Tournament
from .permissions import is_organizer, may_change_player, require_organizer

TOKEN_BYTES = 32
"""43 characters once encoded: guessing one is out of reach."""
_DERIVATION = "championships.links.PlayerLink"
_TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{20,64}")


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _derived(secret: str) -> str:
    return base64.urlsafe_b64encode(salted_hmac(_DERIVATION, secret, algorithm="sha256").digest()).decode().rstrip("=")


def issue(player: Player) -> str:
    """The token of the player's link, the same every time: made (and stored as its digest) on the first email, or
    after a rotation; never does it stop another link working (the module's docstring says why)."""
    with transaction.atomic():
        link = PlayerLink.objects.filter(player=player).exclude(secret="").first()  # the one emails carry
        if link is not None:
            token = _derived(link.secret)
            if link.digest == digest(token):
                return token
            link.secret = ""  # made under another SECRET_KEY: it keeps opening the page, never sent again
            link.save(update_fields=["secret"])
        secret = secrets.token_urlsafe(TOKEN_BYTES)
        try:
            with transaction.atomic():
                PlayerLink.objects.create(player=player, digest=digest(_derived(secret)), secret=secret)
        except IntegrityError:  # another request made the player's link meanwhile: that one is sent
            secret = PlayerLink.objects.exclude(secret="").values_list("secret", flat=True).get(player=player)
        return _derived(secret)


def player_for(token: str) -> Player | None:
    """The player whose link this is, or None (a token of the wrong shape is not even looked up)."""
    if not isinstance(token, str) or not _TOKEN_SHAPE.fullmatch(token):
        return None
    link = PlayerLink.objects.select_related("player").filter(digest=digest(token)).first()
    return link.player if link else None


def private_link(player: Player) -> str:
    """The link to the player's page (`issue`), in the language they registered in, for an email."""
    with translation.override(player.language or settings.LANGUAGE_CODE):
        return absolute(reverse("players-me", args=[issue(player)]))


@transaction.atomic
def rotate(player_id: int, *, user, tournament: Tournament) -> tuple[Player, str | None]:
    """Replace a player's link (a lost phone, a forwarded email): every link given before stops working.

    An organizer of a tournament the player is entered in may. The new link goes to the player's email; only an
    organizer of every tournament the player is in (`permissions.may_change_player`) may be shown it, to hand it
    over to a player without email, and it then acts only where they organize (`may_act`). A player without email
    who also plays elsewhere is left to an organizer of all their tournaments. Audited in each of them.
    Returns the player and the link when the user is shown it, else None (it was emailed)."""
    require_organizer(user, tournament)
    if not Entry.objects.filter(tournament=tournament, player_id=player_id).exists():
        raise ValidationError(_("This player is not entered in %(tournament)s.") % {"tournament": tournament.name})
    player = Player.objects.select_for_update(of=("self",)).get(pk=player_id)
    if not player.email and not may_change_player(user, player):
        raise ValidationError(_("%(player)s has no email, and plays in tournaments you do not organize too: their new "
                                "link can only be handed over by an organizer of every tournament they are entered "
                                "in. Ask the organizers of their other tournaments.") % {"player": player.name})
    removed = PlayerLink.objects.filter(player=player).delete()[0]
    link = private_link(player)
    if player.email:
        with translation.override(player.language or settings.LANGUAGE_CODE):
            queue_email(player.email, _("Your new private link"), "\n".join([
                _("Hello %(name)s,") % {"name": player.name}, "",
                _("The organizers of %(tournament)s replaced your private link: the one you had no longer works. "
                  "Your new link (yours alone: do not share it):") % {"tournament": tournament.name}, link]),
                        about=[tournament])
    else:
        # The one just issued (the row is locked): shown, so never sent again; a later email makes the player's own.
        PlayerLink.objects.filter(player=player).update(shown_to=user, secret="")
    where = set(Entry.objects.filter(player=player).values_list("tournament_id", flat=True)) | {tournament.pk}
    record_change_in(user, where, Action.PLAYER_LINK_ROTATED, player,
                     after={"player": player.name, "links_removed": removed, "emailed": bool(player.email),
                            "from": tournament.name, "from_id": tournament.pk})
    return player, None if player.email else link


def may_act(token: str, tournament: Tournament) -> bool:
    """Whether this link may sign, object or check in for its player in the tournament. A link the player received
    (by email) is theirs everywhere they play; one an organizer was shown, to hand over to a player without email,
    acts only where that organizer organizes, so a copy they kept never signs for another championship's
    tournament, not even one the player joins later."""
    link = _link(token)
    return link is not None and (link.shown_to is None or is_organizer(link.shown_to, tournament))


def sent_to_player(token: str) -> bool:
    """The link reached the player without an organizer seeing it (not shown by `rotate`): only such a link gives the
    player's own word, to confirm an entry made by another championship (`championships.foreign_players`)."""
    link = _link(token)
    return link is not None and link.shown_to_id is None


def _link(token: str) -> PlayerLink | None:
    if not isinstance(token, str) or not _TOKEN_SHAPE.fullmatch(token):
        return None
    return PlayerLink.objects.select_related("shown_to").filter(digest=digest(token)).first()


def send_again(email: str) -> bool:
    """Email the link again to whoever plays with this email (entered, or registered and not refused); nothing for an
    email no player has. Runs in the background (`championships.tasks`), so the page that asked answers the same
    whoever the email belongs to. True when an email went out."""
    player = Player.objects.filter(same_email("email", email)).first()
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
