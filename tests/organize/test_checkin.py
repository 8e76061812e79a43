"""The check-in desk: lateness rule, no-shows, withdrawals that re-plan unpublished games, seating from checked-in."""
from datetime import date, datetime, time

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from audit.models import AuditEntry
from championships.models import Entry
from organize import checkin
from results.models import Penalty
from results.publishing import publish_game
from scheduling.models import Seat
from scheduling.services import generate_seating
from tests.factories import make_entries, make_official, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def day():
    tournament = make_tournament(games=3)
    make_official(tournament, "referee")  # games are published only where a referee is appointed
    return tournament, make_official(tournament, "organizer"), make_entries(tournament, 8)


def test_on_time_check_in_is_recorded_once(day):
    tournament, organizer, entries = day
    for _tap in range(2):
        done = checkin.check_in(tournament, entries[0].pk, user=organizer)
    assert done.entry.status == Entry.Status.CHECKED_IN and done.entry.checked_in_at is not None
    assert AuditEntry.objects.filter(action="entry.checked_in").count() == 1
    assert checkin.counts(tournament).checked_in == 1 and checkin.counts(tournament).waiting == 7


def test_up_to_15_minutes_late_costs_one_vp_and_later_is_not_admitted(day):
    tournament, organizer, entries = day
    late = checkin.check_in(tournament, entries[0].pk, user=organizer, minutes_late=12)
    assert late.penalised and late.entry.status == Entry.Status.CHECKED_IN and late.entry.minutes_late == 12
    assert Penalty.objects.get(entry=entries[0]).vp == 1
    refused = checkin.check_in(tournament, entries[1].pk, user=organizer, minutes_late=16)
    assert refused.not_admitted
    entries[1].refresh_from_db()
    assert entries[1].status == Entry.Status.NOT_ADMITTED and entries[1].checked_in_at is None
    counts = checkin.counts(tournament)
    assert (counts.checked_in, counts.late, counts.not_admitted) == (1, 1, 1)
    with pytest.raises(ValidationError, match="not admitted and cannot be checked in"):
        checkin.check_in(tournament, entries[1].pk, user=organizer)
    with pytest.raises(ValidationError, match="withdraw the penalty"):
        checkin.undo_check_in(tournament, entries[0].pk, user=organizer)


def test_a_referee_cannot_run_the_check_in(day):
    tournament, _organizer, entries = day
    with pytest.raises(PermissionDenied):
        checkin.check_in(tournament, entries[0].pk, user=make_official(tournament, "referee"))


def test_seating_uses_only_checked_in_players_once_check_in_started(day):
    tournament, organizer, entries = day
    for entry in entries[:6]:
        checkin.check_in(tournament, entry.pk, user=organizer)
    generate_seating(tournament.stages.get().pk, user=organizer, seed=1)
    seated = set(Seat.objects.filter(game__tournament=tournament).values_list("entry_id", flat=True))
    assert seated == {e.pk for e in entries[:6]}


def test_no_shows_only_before_the_first_game(day):
    tournament, organizer, entries = day
    checkin.check_in(tournament, entries[0].pk, user=organizer)
    assert checkin.mark_no_show(tournament, [e.pk for e in entries], user=organizer) == 7
    assert checkin.counts(tournament).no_show == 7
    for entry in entries[1:7]:
        Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.CHECKED_IN)
    generate_seating(tournament.stages.get().pk, user=organizer, seed=1)
    publish_game(tournament.games.order_by("number").first().pk, user=organizer)
    with pytest.raises(ValidationError, match="withdraws instead"):
        checkin.mark_no_show(tournament, [entries[7].pk], user=organizer)


def test_withdrawal_between_games_replans_only_unpublished_games(day):
    tournament, organizer, entries = day
    stage = tournament.stages.get()
    generate_seating(stage.pk, user=organizer, seed=1)
    first = tournament.games.order_by("number").first()
    publish_game(first.pk, user=organizer)
    before_first = sorted(Seat.objects.filter(game=first).values_list("entry_id", "table__number", "position"))
    gone = entries[3]
    result = checkin.withdraw(tournament, gone.pk, user=organizer, reason="Felt unwell")
    assert result.to_do == [] and len(result.replanned) == 1 and "games 2, 3" in result.replanned[0]
    assert sorted(Seat.objects.filter(game=first).values_list("entry_id", "table__number", "position")) == before_first
    later = Seat.objects.filter(game__tournament=tournament).exclude(game=first)
    assert later.exists() and not later.filter(entry=gone).exists()
    assert AuditEntry.objects.get(action="entry.withdrawn").reason == "Felt unwell"


def test_withdrawal_that_cannot_be_replanned_tells_the_organizer(day):
    tournament, organizer, entries = day
    for entry in entries[6:]:
        checkin.withdraw(tournament, entry.pk, user=organizer, reason="Left")
    generate_seating(tournament.stages.get().pk, user=organizer, seed=1)
    result = checkin.withdraw(tournament, entries[0].pk, user=organizer, reason="Left")
    assert result.replanned == [] and "could not be planned again" in result.to_do[0]
    assert Seat.objects.filter(entry=entries[0]).exists()  # nothing was rewritten behind the organizer's back


def test_withdrawal_needs_a_reason_and_happens_once(day):
    tournament, organizer, entries = day
    with pytest.raises(ValidationError):
        checkin.withdraw(tournament, entries[0].pk, user=organizer, reason="  ")
    checkin.withdraw(tournament, entries[0].pk, user=organizer, reason="Ill")
    checkin.withdraw(tournament, entries[0].pk, user=organizer, reason="Ill")
    assert AuditEntry.objects.filter(action="entry.withdrawn").count() == 1


def test_suggested_minutes_count_from_the_official_start_on_the_day():
    tournament = make_tournament(date=date(2022, 6, 11), official_start=time(10, 0))
    at = timezone.make_aware(datetime(2022, 6, 11, 10, 7, 30))
    assert checkin.suggested_minutes_late(tournament, at) == 7
    assert checkin.suggested_minutes_late(tournament, timezone.make_aware(datetime(2022, 6, 11, 9, 0))) == 0
    assert checkin.suggested_minutes_late(tournament, timezone.make_aware(datetime(2022, 6, 12, 11, 0))) == 0


def test_check_in_page_search_tap_and_csv(client, day):
    tournament, organizer, entries = day
    client.force_login(organizer)
    url = f"/organize/{tournament.slug}/check-in/"
    page = client.get(url, {"q": entries[2].player.name})
    assert page.status_code == 200 and entries[2].player.name in page.content.decode()
    response = client.post(f"{url}{entries[2].pk}/", {"action": "check_in", "minutes_late": "5"},
                           HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200 and "checked in late: 1 VP deducted" in body and 'hx-swap-oob="true"' in body
    response = client.post(f"{url}{entries[3].pk}/", {"action": "check_in", "minutes_late": "-3"})
    assert response.status_code == 302 and Entry.objects.get(pk=entries[3].pk).status == Entry.Status.REGISTERED
    csv = client.get(f"/organize/{tournament.slug}/check-in.csv").content.decode("utf-8-sig")
    assert f"{entries[2].player.name},AE,checked_in,checked in,5," in csv
    referee = make_official(tournament, "referee")
    client.force_login(referee)
    assert client.get(url).status_code == 403
    assert client.post(f"{url}{entries[4].pk}/", {"action": "check_in"}).status_code == 403


def test_the_activity_log_tells_check_ins_and_withdrawals(day):
    from organize.activity import described

    tournament, organizer, entries = day
    checkin.check_in(tournament, entries[0].pk, user=organizer, minutes_late=4)
    checkin.withdraw(tournament, entries[1].pk, user=organizer, reason="Ill")
    checkin.mark_no_show(tournament, [entries[2].pk], user=organizer)
    said = {row.entry.action: row.what for row in described(AuditEntry.objects.filter(tournament=tournament))}
    assert said["entry.checked_in"] == f"{entries[0].player.name} checked in, 4 minutes late"
    assert said["entry.withdrawn"] == f"{entries[1].player.name} withdrew"
    assert said["entry.no_show"] == f"{entries[2].player.name} did not come"
