"""Emails the site could not send, shown to the organizers of what each concerns (issue 32): recorded when the email
queue gives up on one (`core.mail.email_failed`), listed and exported on a tournament's page (web/organize), sent
again by an organizer, audited.

A failure is recorded once per tournament or championship the email is `about`, so no organizer sees another
championship's players' addresses; an email about nothing of theirs (a password reset) is only logged. A tournament's
page lists its own emails and, to an organizer of its championship, the championship's (a webhook turned off).
"""
from __future__ import annotations

from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.actions import Action
from audit.services import record_change
from championships.models import StaffRole, Tournament
from championships.permissions import require_organizer
from core import mail
from core.sealed import seal, unseal
from core.text import one_line

from .models import UndeliveredEmail

ABOUT = {"championships.Tournament": "tournament", "championships.Championship": "championship"}
"""The rows an email may be about, by model label, and the field of UndeliveredEmail that names them."""


def record_failure(sender, *, message: mail.Message, reason: str, **kwargs) -> None:
    """`core.mail.email_failed`'s receiver: the email on the page of each event it is about. The same email failing
    again before anyone sent it again (a notice tried on each run) is counted on its row."""
    sealed = ""
    for label, pk in message.get("about") or ():
        field = ABOUT.get(label)
        if field is None or not apps.get_model(label).objects.filter(pk=pk).exists():
            continue
        sealed = sealed or seal({**message, "record": None})
        values = {"to": message["to"][:254], "subject": one_line(message["subject"])[:300]}
        with transaction.atomic():
            same = (UndeliveredEmail.objects.select_for_update()
                    .filter(**{f"{field}_id": pk}, **values, sent_again_at__isnull=True).first())
            if same is None:
                UndeliveredEmail.objects.create(**{f"{field}_id": pk}, **values, reason=reason,
                                                failed_at=timezone.now(), message=sealed)
            else:
                UndeliveredEmail.objects.filter(pk=same.pk).update(failures=F("failures") + 1, reason=reason,
                                                                   failed_at=timezone.now(), message=sealed)


def _organizes_championship(user, tournament: Tournament) -> bool:
    return tournament.championship_id is not None and (user.is_superuser or StaffRole.objects.filter(
        user=user, role=StaffRole.Role.ORGANIZER, championship_id=tournament.championship_id).exists())


def for_tournament(tournament: Tournament, user) -> QuerySet[UndeliveredEmail]:
    """The tournament's emails not sent, newest first, and its championship's for an organizer of the championship
    (the caller has checked that `user` organizes the tournament)."""
    shown = Q(tournament=tournament)
    if _organizes_championship(user, tournament):
        shown |= Q(championship_id=tournament.championship_id)
    return UndeliveredEmail.objects.filter(shown).select_related("sent_again_by")


def waiting(tournament: Tournament, user) -> int:
    """How many are still to be sent again (the console's warning)."""
    return for_tournament(tournament, user).filter(sent_again_at__isnull=True).count()


def send_again(tournament: Tournament, email_id: int, *, user) -> UndeliveredEmail:
    """Queue the email again, as it was written (`core.mail`); a failure again is a new row. The same request twice
    (a double tap) finds it sent again and changes nothing."""
    require_organizer(user, tournament)
    with transaction.atomic():
        row = for_tournament(tournament, user).select_for_update(of=("self",)).filter(pk=email_id).first()
        if row is None:
            raise ValidationError(_("This email is not one of this tournament's."))
        if row.sent_again_at is not None:
            return row
        message = unseal(row.message) if row.message else None
        if message is None:
            raise ValidationError(_("This email can no longer be sent again (the site's key changed): do again what "
                                    "sent it, or write to the player yourself."))
        mail.queue(message)
        row.sent_again_at, row.sent_again_by, row.message = timezone.now(), user, ""
        row.save(update_fields=["sent_again_at", "sent_again_by", "message"])
        record_change(user, row.tournament_id, Action.EMAIL_SENT_AGAIN, row,
                      after={"to": row.to, "subject": row.subject}, championship_id=row.championship_id)
    return row
