"""Each championship's privacy notice (docs/privacy.md): a default text until its organizers write their own; every
change is a new version, and a registration records the version its player accepted."""
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from audit.actions import Action
from audit.services import record_change

from .models import Championship, PrivacyNotice
from .permissions import require_championship_organizer

DEFAULT_TEXT = gettext_lazy(
    "The organizers of this championship keep your name, email, date of birth (where the championship has a minimum "
    "age), country and city, to enter you, seat you, write to you and publish the standings. Your name, country and "
    "results are public: standings, PDFs, ratings. Your email and date of birth are seen only by the organizers of "
    "the tournaments you play. You can download everything kept about you, and ask for it to be erased, from your own "
    "page; your results then stay under a pseudonym. Without a tournament for three years, your personal data is "
    "erased.")


def current(championship: Championship | None) -> PrivacyNotice | None:
    """The latest version, or None while the championship has only the default text."""
    if championship is None:
        return None
    return championship.privacy_notices.order_by("-version").first()


def text_of(championship: Championship | None) -> str:
    notice = current(championship)
    return notice.text if notice is not None else str(DEFAULT_TEXT)


def accepted(championship: Championship) -> PrivacyNotice:
    """The version a registration accepts now: the latest, or the default text saved as version 1."""
    notice = current(championship)
    if notice is not None:
        return notice
    return _new_version(championship, str(DEFAULT_TEXT), user=None)


@transaction.atomic
def change(championship: Championship, text: str, *, user) -> PrivacyNotice:
    """A new version written by one of the championship's organizers; audited."""
    require_championship_organizer(user, championship)
    text = text.strip()
    if not text:
        raise ValidationError({"text": _("Write the notice: it cannot be empty.")})
    if len(text) > PrivacyNotice.TEXT_MAX:
        raise ValidationError({"text": _("At most %(n)d characters.") % {"n": PrivacyNotice.TEXT_MAX}})
    notice = _new_version(championship, text, user=user)
    record_change(user, None, Action.PRIVACY_NOTICE_CHANGED, notice, after={"version": notice.version},
                  championship_id=championship.pk)
    return notice


def _new_version(championship: Championship, text: str, *, user) -> PrivacyNotice:
    with transaction.atomic():
        Championship.objects.select_for_update().filter(pk=championship.pk).first()  # one writer of the next number
        last = championship.privacy_notices.aggregate(last=Max("version"))["last"] or 0
        return PrivacyNotice.objects.create(championship=championship, version=last + 1, text=text, created_by=user)


def consent_collected(tournament, *, players: int, user) -> None:
    """An imported list's players agreed to the notice, as its organizer confirms (the notice in force is recorded:
    the default saved as version 1 if the organizers wrote none)."""
    notice = accepted(tournament.championship)
    record_change(user, tournament.pk, Action.CONSENT_COLLECTED, notice,
                  after={"version": notice.version, "players": players})


def version_shown(championship: Championship | None) -> int:
    """The version a registration or an import would accept now (1 while only the default text exists)."""
    notice = current(championship)
    return notice.version if notice is not None else 1
