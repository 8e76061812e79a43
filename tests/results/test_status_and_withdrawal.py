"""Status moves by itself; publishing warns about missing results; penalties are withdrawn (issue 11)."""
import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from audit.models import AuditEntry
from championships.models import Entry, Tournament
from ranking.standings import tournament_standings
from results.models import Penalty
from results.penalties import record_lateness, record_penalty, withdraw_penalty
from results.publishing import publish_game
from scheduling.models import Game
from scheduling.services import generate_seating
from tests.factories import make_entries, make_game, make_official, make_tournament, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_games():
    tournament = make_tournament(games=2)
    tournament.status = Tournament.Status.REGISTRATION
    tournament.save()
    make_entries(tournament, 8)
    organizer = make_official(tournament, "organizer")
    referee = make_official(tournament, "referee")
    generate_seating(tournament.stages.get().pk, user=organizer, seed=1)
    return tournament, organizer, referee


def status(tournament) -> str:
    return Tournament.objects.get(pk=tournament.pk).status


def test_registration_to_running_on_game_1_then_finished_when_the_last_sheet_of_the_last_game_is_signed_off(two_games):
    tournament, organizer, referee = two_games
    first, second = Game.objects.filter(tournament=tournament).order_by("number")
    publish_game(first.pk, user=organizer)
    assert status(tournament) == "running"
    entry = AuditEntry.objects.get(action="tournament.status")
    assert (entry.before, entry.after["status"], entry.user) == ({"status": "registration"}, "running", organizer)
    for table in first.tables.all():
        play(table, [10, 7, 5, 3], referee)
    assert status(tournament) == "running"  # game 2 is still to come
    publish_game(second.pk, user=organizer)
    last, *others = list(second.tables.order_by("-number"))
    for table in others:
        play(table, [10, 7, 5, 3], referee)
    assert status(tournament) == "running"
    play(last, [10, 7, 5, 3], referee)
    assert status(tournament) == "finished"
    assert AuditEntry.objects.filter(action="tournament.status", after__status="finished", user=referee).count() == 1


def test_a_closed_tournament_is_not_reopened_by_publishing(two_games):
    tournament, organizer, _referee = two_games
    Tournament.objects.filter(pk=tournament.pk).update(status="finished")
    publish_game(Game.objects.filter(tournament=tournament).order_by("number").first().pk, user=organizer)
    assert status(tournament) == "finished"


def test_publishing_asks_for_confirmation_while_tables_miss_results(client, two_games):
    tournament, organizer, referee = two_games
    first, second = Game.objects.filter(tournament=tournament).order_by("number")
    publish_game(first.pk, user=organizer)
    play(first.tables.order_by("number").first(), [10, 7, 5, 3], referee)
    client.force_login(organizer)
    url = reverse("game-publish", args=[tournament.slug, second.stage_id, second.pk])
    page = client.post(url)
    assert page.status_code == 200 and "has no signed-off result yet" in page.content.decode()
    assert "Game 1, table 2" in page.content.decode()
    assert Game.objects.get(pk=second.pk).status == "planned"
    assert client.post(url, {"confirm_missing": "1"}).status_code == 302
    assert Game.objects.get(pk=second.pk).status == "published"


def test_the_live_list_shows_the_tables_still_missing_results(client, two_games):
    tournament, organizer, referee = two_games
    first = Game.objects.filter(tournament=tournament).order_by("number").first()
    publish_game(first.pk, user=organizer)
    play(first.tables.order_by("number").first(), [10, 7, 5, 3], referee)
    client.force_login(organizer)
    page = client.get(reverse("organize-missing", args=[tournament.slug]), headers={"HX-Request": "true"})
    html = page.content.decode()
    assert 'hx-trigger="every 20s"' in html and "Game 1, table 2" in html and "Game 1, table 1" not in html


@pytest.fixture
def penalized():
    tournament = make_tournament()
    entries = make_entries(tournament, 4)
    referee = make_official(tournament, "referee")
    organizer = make_official(tournament, "organizer")
    table = make_game(tournament, [entries]).tables.get()
    play(table, [10, 7, 5, 3], referee)
    return tournament, entries, referee, organizer


def total_vp(tournament, entry) -> int:
    return next(row["total_vp"] for row in tournament_standings(tournament) if row["entry"] == entry.pk)


def test_a_withdrawn_deduction_stays_on_record_and_no_longer_counts(penalized, django_capture_on_commit_callbacks):
    tournament, entries, referee, organizer = penalized
    penalty = record_lateness(entries[0].pk, 10, user=referee).penalty  # 001 §6: 1 VP off
    assert total_vp(tournament, entries[0]) == 9
    with pytest.raises(PermissionDenied):
        withdraw_penalty(penalty.pk, user=referee, reason="Mistake")
    with pytest.raises(ValidationError):
        withdraw_penalty(penalty.pk, user=organizer, reason=" ")
    with django_capture_on_commit_callbacks(execute=True):
        withdrawn = withdraw_penalty(penalty.pk, user=organizer, reason="Wrong player")
    assert (withdrawn.withdrawn_by, withdrawn.withdrawal_reason) == (organizer, "Wrong player")
    assert Penalty.objects.filter(pk=penalty.pk).exists()
    assert total_vp(tournament, entries[0]) == 10
    assert AuditEntry.objects.get(action="penalty.withdrawn").reason == "Wrong player"
    withdraw_penalty(penalty.pk, user=organizer, reason="Again")  # a second withdrawal changes nothing
    assert AuditEntry.objects.filter(action="penalty.withdrawn").count() == 1


def test_withdrawing_a_late_arrival_or_a_disqualification_undoes_its_effect(penalized):
    tournament, entries, referee, organizer = penalized
    late = record_lateness(entries[1].pk, 5, user=referee).penalty
    withdraw_penalty(late.pk, user=organizer, reason="The clock was wrong")
    assert Entry.objects.get(pk=entries[1].pk).minutes_late == 0
    assert record_lateness(entries[1].pk, 3, user=referee).penalty is not None  # may be recorded again
    second = make_game(tournament, [entries], number=2)  # 001 §6: disqualified during a game
    dq = record_penalty(entries[2].pk, user=referee, kind="disqualification", ground="conduct", reason="Insults",
                        game=second)
    assert Entry.objects.get(pk=entries[2].pk).status == "disqualified"
    withdraw_penalty(dq.pk, user=organizer, reason="Another player")
    assert Entry.objects.get(pk=entries[2].pk).status == "registered"


def test_withdrawing_one_collusion_warning_withdraws_its_incident(penalized):
    tournament, entries, referee, organizer = penalized
    warning = record_penalty(entries[0].pk, user=referee, kind="collusion", partner_id=entries[1].pk,
                             reason="Traded cards for nothing", game=tournament.games.get())
    withdraw_penalty(warning.pk, user=organizer, reason="Misread")
    assert Penalty.objects.filter(kind="collusion", withdrawn_at__isnull=False).count() == 2


def test_the_penalties_page_offers_organizers_a_withdrawal_form(client, penalized):
    tournament, entries, referee, organizer = penalized
    penalty = record_penalty(entries[0].pk, user=referee, kind="warning", reason="Noise")
    client.force_login(referee)
    page = client.get(reverse("referee-penalties", args=[tournament.slug])).content.decode()
    assert "Reason for withdrawing it" not in page
    client.force_login(organizer)
    page = client.get(reverse("referee-penalties", args=[tournament.slug])).content.decode()
    assert reverse("penalty-withdraw", args=[tournament.slug, penalty.pk]) in page
    response = client.post(reverse("penalty-withdraw", args=[tournament.slug, penalty.pk]), {"reason": "Not him"})
    assert response.status_code == 302
    assert Penalty.objects.get(pk=penalty.pk).withdrawn_at is not None
    log = client.get(reverse("activity-log", args=[tournament.slug]), {"kind": "penalty"}).content.decode()
    assert f"Penalty withdrawn (warning): <bdi>{entries[0].player.name}</bdi>" in log
