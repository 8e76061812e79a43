"""Erasing a player's personal data while every result stays true (docs/privacy.md): the name becomes a pseudonym
everywhere, the details, links and push subscriptions go, and results, ranks and ratings are untouched, since they
hang on the player's row and entries, which stay. What is erased is said by the registry (core/personal_data.py).

The activity log records that an erasure happened (`Action.PLAYER_ERASED`, with the pseudonym), and its older
entries, the sheets' versions and webhook bodies about the player are scrubbed of the old name, email and date of
birth. An `Erasure` row keeps the player's id and the time, so that a restored file cannot bring them back."""
import re
from collections.abc import Iterable
from datetime import date

from django.conf import settings
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.db import models, transaction
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from audit.actions import Action
from audit.models import AuditEntry
from audit.services import record_change_in
from championships.models import Entry, Player, Registration, Tournament
from championships.permissions import may_change_player
from core.changes import announce
from core.mail import queue_email
from core.personal_data import BLANK, PSEUDONYM, SCRUB, Holding, holdings
from core.site import absolute

from .models import Erasure


def pseudonym(number: int) -> str:
    """What an erased player is called everywhere: their id, which says nothing about them."""
    return f"Player {number}"


def is_erased(player: Player) -> bool:
    return Erasure.objects.filter(player_id=player.pk).exists()


def may_erase(user, player: Player) -> bool:
    """An organizer of every tournament the player played (`may_change_player`), who organizes at least one of them:
    a player with no entry is erased by a superuser, or by themselves."""
    if user.is_superuser:
        return True
    return Entry.objects.filter(player=player).exists() and may_change_player(user, player)


def _texts(player: Player, extra: Iterable[str]) -> list[tuple[str, bool]]:
    """The strings to scrub, each with whether it is a name (replaced by the pseudonym; the rest by ""): every name,
    email, city and date of birth the player was known by, longest first, so a longer one goes whole."""
    extra = set(extra)
    others = {player.email, born_iso(player.date_of_birth)} | {
        text for text in extra if "@" in text or re.fullmatch(r"\d{4}-\d\d-\d\d", text)}
    names = {player.name, *(extra - others)}
    for name, email, born, city in Registration.objects.filter(player=player).values_list(
            "name", "email", "date_of_birth", "city"):
        names.add(name)
        others |= {email, born_iso(born), city}
    found = {(text, True) for text in names if text} | {(text, False) for text in others if text}
    found = {(text, is_name) for text, is_name in found if len(text) > 1}
    return sorted(found, key=lambda pair: len(pair[0]), reverse=True)


def _scrub_activity_logs(tournament_ids: set[int], texts: list[tuple[str, bool]], name: str) -> None:
    """Every entry of the activity logs of the player's tournaments that names them (a penalty, a sheet signed off,
    a pair declared), not only those about their own rows."""
    for entry in AuditEntry.objects.filter(tournament__in=tournament_ids).iterator():
        changed = {field: scrub(getattr(entry, field), texts, name) for field in ("before", "after", "reason")}
        if any(changed[field] != getattr(entry, field) for field in changed):
            AuditEntry.objects.filter(pk=entry.pk).update(**changed)


def scrub(value, texts: list[tuple[str, bool]], name: str):
    """`value` (text or JSON) with each of `texts` replaced where it stands as a whole word: a name by the
    pseudonym `name`, the rest by "". Keys stay."""
    if isinstance(value, str):
        for text, is_name in texts:
            value = re.sub(rf"(?<!\w){re.escape(text)}(?!\w)", name if is_name else "", value, flags=re.IGNORECASE)
        return value
    if isinstance(value, list):
        return [scrub(item, texts, name) for item in value]
    if isinstance(value, dict):
        return {key: scrub(item, texts, name) for key, item in value.items()}
    return value


def _erased_value(holding: Holding, row: models.Model, field: str, rule, texts: list[tuple[str, bool]],
                  name: str):
    if rule is PSEUDONYM:
        return name
    if rule is BLANK:
        return None if getattr(holding.model._meta.get_field(field), "null", False) else ""
    if rule is SCRUB:
        return scrub(getattr(row, field), texts, name)
    return rule(row)


@transaction.atomic
def erase(player_id: int, *, by: str, user=None, reason: str = "", number: int | None = None,
          also: Iterable[str] = (), record: bool = True) -> Player:
    """Erase the player's personal data; idempotent. `by`: an `Erasure.By` value; `user`: the organizer, who must
    be one of every tournament the player played (`may_erase`); None when the player asked, confirmed by the emailed
    link, or for the retention job; `reason`: the organizer's reference to the written request (scrubbed too).
    `number`: the pseudonym's (the player's original id, for a restore); `also`:
    more old details to scrub (a restored file's). `record=False` when re-applying a recorded erasure."""
    player = Player.objects.select_for_update().get(pk=player_id)
    if user is not None and not may_erase(user, player):
        raise PermissionDenied("Only an organizer of every tournament this player played may erase them.")
    name = pseudonym(number or player.pk)
    texts = _texts(player, also)
    where = set(Entry.objects.filter(player=player).values_list("tournament_id", flat=True))
    found = [(holding, list(holding.of(player))) for holding in holdings()]  # before the record changes
    for holding, rows in found:
        if holding.delete:
            holding.model._default_manager.filter(pk__in=[row.pk for row in rows]).delete()
            continue
        for row in rows:
            changes = {field: _erased_value(holding, row, field, rule, texts, name)
                       for field, rule in holding.erase.items()}
            if holding.model is Player:  # saved last: its name keys follow and the caches of its pages go
                for field, value in changes.items():
                    setattr(player, field, value)
            else:
                holding.model._default_manager.filter(pk=row.pk).update(**changes)  # audit entries are never saved
    _scrub_activity_logs(where, texts, name)
    player.save()
    announce(*where)  # their name is on the pages of every tournament they played
    if record:
        Erasure.objects.get_or_create(player_id=number or player.pk, defaults={"by": by})
        record_change_in(user, where, Action.PLAYER_ERASED, player, after={"player": name, "by": by},
                         reason=scrub(reason, texts, name),
                         player=player if user is None and by == Erasure.By.PLAYER else None)
    return player


def born_iso(value: date | None) -> str:
    return value.isoformat() if value else ""


ASK_SALT = "privacy.erasure"
ASK_HOURS = 24
"""How long the emailed link that confirms an erasure works."""


def ask(player: Player) -> bool:
    """Email the player the link that confirms their erasure (asked from their own page); False without an email
    to send it to. Nothing is erased until the link's page is confirmed."""
    if not player.email:
        return False
    tournaments = Tournament.objects.filter(entries__player=player).distinct()
    with translation.override(player.language or settings.LANGUAGE_CODE):
        link = absolute(reverse("players-erase-confirm", args=[signing.dumps(player.pk, salt=ASK_SALT)]))
        queue_email(player.email, _("Erase your data?"), "\n".join([
            _("Hello %(name)s,") % {"name": player.name}, "",
            _("You asked, from your own page, to erase your personal data. To confirm, open this link within "
              "%(hours)d hours and press the button:") % {"hours": ASK_HOURS}, link, "",
            _("Your email, date of birth, city, private links and notifications will be deleted and your name "
              "replaced by a pseudonym everywhere; results and ratings stay as they are. If you did not ask, "
              "ignore this email: nothing changes.")]), about=tournaments)
    return True


def asked_by(token: str) -> Player | None:
    """The player whose emailed erasure link this is, while it is valid and they are not erased yet."""
    try:
        player_id = signing.loads(token, salt=ASK_SALT, max_age=ASK_HOURS * 3600)
    except signing.BadSignature:
        return None
    player = Player.objects.filter(pk=player_id).first() if isinstance(player_id, int) else None
    return None if player is None or is_erased(player) else player
