"""Retention (privacy/retention.py): a player with no tournament for the retention period is erased, a month after
the organizers of their tournaments were told; a player who plays again is kept."""
from datetime import UTC, date, datetime, timedelta

import pytest
from django.core import mail
from django.test import override_settings

from championships.models import Entry, Player
from privacy import retention
from privacy.erasure import pseudonym
from privacy.models import RetentionNotice
from tests.factories import make_entries, make_official, make_tournament

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 12, 2, 4, 0, tzinfo=UTC)


@override_settings(PRIVACY_RETENTION_YEARS=3)
def test_players_gone_for_three_years_are_erased_a_month_after_their_organizers_were_told(
        django_capture_on_commit_callbacks):
    old = make_tournament(date=date(2023, 12, 20))
    organizer = make_official(old, "organizer")
    organizer.email = "org@example.com"
    organizer.save()
    gone, back = (entry.player for entry in make_entries(old, 2))
    Player.objects.filter(pk=gone.pk).update(email="gone@example.com")
    Entry.objects.create(tournament=make_tournament(date=date(2026, 5, 1)), player=back)
    with django_capture_on_commit_callbacks(execute=True):
        assert retention.run(NOW) == retention.Outcome(told=1, erased=0)  # due on 20 Dec: told now
    (message,) = mail.outbox
    assert message.to == ["org@example.com"] and gone.name in message.body and pseudonym(gone.pk) in message.body
    assert retention.run(NOW + timedelta(days=10)) == retention.Outcome(0, 0)  # not a second email
    assert retention.run(NOW + timedelta(days=29)) == retention.Outcome(0, 0)  # not yet a month
    assert retention.run(NOW + timedelta(days=31)) == retention.Outcome(0, 1)
    erased = Player.objects.get(pk=gone.pk)
    assert (erased.name, erased.email) == (pseudonym(gone.pk), "")
    assert Player.objects.get(pk=back.pk).name == back.name and not RetentionNotice.objects.exists()


@override_settings(PRIVACY_RETENTION_YEARS=3)
def test_a_player_entered_again_after_the_notice_is_kept():
    old = make_tournament(date=date(2023, 12, 20))
    (entry,) = make_entries(old, 1)
    assert retention.run(NOW).told == 1
    Entry.objects.create(tournament=make_tournament(date=None), player=entry.player)  # a tournament to come
    assert retention.run(NOW + timedelta(days=40)) == retention.Outcome(0, 0)
    assert Player.objects.get(pk=entry.player_id).name == entry.player.name
