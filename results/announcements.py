"""Announcements: notices and rulings a tournament's organizers and referees post to everyone."""
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from audit.actions import Action
from audit.services import record_change
from championships.models import Tournament
from championships.permissions import require_official
from core.changes import announce
from webhooks import events as webhook_events

from .models import ANNOUNCEMENT_MAX, Announcement


def post_announcement(tournament_id: int, text: str, *, user) -> Announcement:
    """Publish a notice on the tournament's public pages and projector."""
    text = " ".join(text.split())
    if not text:
        raise ValidationError({"text": [_("Write the announcement first.")]})
    if len(text) > ANNOUNCEMENT_MAX:
        raise ValidationError({"text": [_("An announcement has at most %(max)d characters; this one has %(n)d.")
                                        % {"max": ANNOUNCEMENT_MAX, "n": len(text)}]})
    with transaction.atomic():
        tournament = Tournament.objects.get(pk=tournament_id)
        require_official(user, tournament)
        announcement = Announcement.objects.create(tournament=tournament, text=text, author=user)
        record_change(user, tournament.pk, Action.ANNOUNCEMENT_POSTED, announcement, after={"text": text})
        announce(tournament.pk)
        webhook_events.announcement_posted(tournament, announcement.pk, text, announcement.created)
    return announcement


def remove_announcement(announcement_id: int, *, user) -> None:
    """Take a notice down; the audit trail keeps what it said. Removing it twice is not an error."""
    with transaction.atomic():
        announcement = (Announcement.objects.select_for_update(of=("self",)).select_related("tournament")
                        .filter(pk=announcement_id).first())
        if announcement is None:
            return
        require_official(user, announcement.tournament)
        record_change(user, announcement.tournament_id, Action.ANNOUNCEMENT_REMOVED, announcement,
                      before={"text": announcement.text})
        announcement.delete()
        announce(announcement.tournament_id)
