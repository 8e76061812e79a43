"""Personal data kept no longer than needed (docs/privacy.md): a player with no tournament for
`settings.PRIVACY_RETENTION_YEARS` is erased (privacy/erasure.py), after the organizers of their tournaments were
told a month before, so one who plays on can be entered again in time. Run daily by Celery beat (privacy/tasks.py).

A player's last tournament is the latest date among their entries' tournaments and their registrations; a
tournament without a date counts as today (it is still to come), so its players are kept."""
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Max, Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from championships.models import Player, Tournament
from core.mail import queue_email

from .erasure import erase, pseudonym
from .models import Erasure, RetentionNotice

NOTICE_DAYS = 30
"""How long before the erasure the organizers are told."""


@dataclass(frozen=True)
class Outcome:
    told: int
    erased: int


def cutoff(today: date) -> date:
    """Players whose last tournament is before this day are past the retention period."""
    years = settings.PRIVACY_RETENTION_YEARS
    try:
        return today.replace(year=today.year - years)
    except ValueError:  # 29 February
        return today.replace(year=today.year - years, day=28)


def _last_played():
    """Players with an entry, by the date of their last tournament (an undated one counts as today)."""
    players = Player.objects.exclude(pk__in=Erasure.objects.values("player_id")).filter(entries__isnull=False)
    return players.annotate(
        last=Max("entries__tournament__date"),
        undated=Max("entries__tournament__pk", filter=Q(entries__tournament__date__isnull=True)),
        registered=Max("registrations__created_at"),
    )


def run(now: datetime | None = None) -> Outcome:
    """Tell the organizers of players due in a month; erase those told at least a month ago and still due."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    due_by = cutoff(today + timedelta(days=NOTICE_DAYS))
    told = erased = 0
    for player in _last_played():
        if player.undated is not None or player.last is None:
            continue
        last = max(player.last, timezone.localdate(player.registered) if player.registered else player.last)
        notice = RetentionNotice.objects.filter(player_id=player.pk).first()
        if last >= due_by:
            if notice is not None:  # they played again since the notice
                notice.delete()
            continue
        if notice is None:
            _tell_organizers(player, erase_on=today + timedelta(days=NOTICE_DAYS))
            RetentionNotice.objects.create(player_id=player.pk, notified_at=now)
            told += 1
        elif last < cutoff(today) and notice.notified_at <= now - timedelta(days=NOTICE_DAYS):
            erase(player.pk, by=Erasure.By.RETENTION)
            notice.delete()
            erased += 1
    return Outcome(told, erased)


def _tell_organizers(player: Player, *, erase_on: date) -> None:
    tournaments = Tournament.objects.filter(entries__player=player).distinct()
    organizers = get_user_model().objects.filter(
        Q(staff_roles__role="organizer", staff_roles__tournament__in=tournaments)
        | Q(staff_roles__role="organizer", staff_roles__championship__tournaments__in=tournaments)
    ).exclude(email="").distinct()
    for user in organizers:
        with translation.override(settings.LANGUAGE_CODE):
            queue_email(user.email, _("A player's data is erased in a month: %(player)s") % {"player": player.name},
                        "\n".join([
                            _("%(player)s has played no tournament for %(years)d years. On %(date)s their email, "
                              "date of birth and city are erased and their name becomes %(pseudonym)s; their results "
                              "stay.") % {"player": player.name, "years": settings.PRIVACY_RETENTION_YEARS,
                                          "date": erase_on.isoformat(), "pseudonym": pseudonym(player.pk)},
                            _("Enter them in a tournament before then to keep their details.")]),
                        about=tournaments)
