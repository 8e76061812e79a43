"""Publishing a game opens a record sheet at each table; taking it back closes them; both are audited."""
import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from audit.models import AuditEntry
from championships.models import StaffRole
from results.models import RecordSheet, Score
from results.publishing import publish_game, reconcile_game_status, record_play_order, unpublish_game
from scheduling.models import Game, Seat
from scheduling.services import generate_seating
from tests.factories import make_entries, make_game, make_official, make_tournament, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def planned():
    tournament = make_tournament(games=1)
    make_entries(tournament, 11)  # two tables of 4 and one of 3
    organizer = make_official(tournament, "organizer")
    make_official(tournament, "referee")
    generate_seating(tournament.stages.get().pk, user=organizer, seed=1)
    return Game.objects.get(tournament=tournament), organizer


def test_publishing_opens_one_sheet_per_table_with_a_score_row_per_seat(planned):
    game, organizer = planned
    assert not RecordSheet.objects.filter(table__game=game).exists()
    publish_game(game.pk, user=organizer)
    assert RecordSheet.objects.filter(table__game=game, status="draft", version=0).count() == 3
    assert Score.objects.filter(sheet__table__game=game).count() == Seat.objects.filter(game=game).count() == 11
    publish_game(game.pk, user=organizer)  # a double tap changes nothing
    assert RecordSheet.objects.filter(table__game=game).count() == 3
    assert list(AuditEntry.objects.filter(object_type="game").values_list("action", flat=True)) == [
        "seating.published"]


def test_taking_back_closes_the_sheets(planned):
    game, organizer = planned
    publish_game(game.pk, user=organizer)
    unpublish_game(game.pk, user=organizer)
    assert Game.objects.get(pk=game.pk).status == "planned"
    assert not RecordSheet.objects.filter(table__game=game).exists()
    assert AuditEntry.objects.filter(action="seating.unpublished", user=organizer).exists()


def test_referees_do_not_publish(planned):
    game, _organizer = planned
    with pytest.raises(PermissionDenied):
        publish_game(game.pk, user=make_official(game.tournament, "referee"))
    assert Game.objects.get(pk=game.pk).status == "planned"


def test_no_game_is_published_before_the_tournament_has_a_referee(client, planned):
    """Seed 001 §5: "A tournament is arbitrated by at least one referee chosen by the organizer": publishing
    is refused until there is one, with a message saying where to add one."""
    game, organizer = planned
    StaffRole.objects.filter(tournament=game.tournament, role=StaffRole.Role.REFEREE).delete()
    with pytest.raises(ValidationError, match="has no referee yet.*staff page"):
        publish_game(game.pk, user=organizer)
    client.force_login(organizer)
    url = reverse("game-publish", kwargs={"slug": game.tournament.slug, "stage_id": game.stage_id, "game_id": game.pk})
    page = client.post(url, follow=True).content.decode()
    assert "has no referee yet" in page and "is published" not in page
    assert Game.objects.get(pk=game.pk).status == "planned"
    assert not RecordSheet.objects.filter(table__game=game).exists()
    make_official(game.tournament, "referee")
    assert "is published" in client.post(url, follow=True).content.decode()
    assert Game.objects.get(pk=game.pk).status == "published"


def scheduled_table(ruleset):
    """A published scheduled (preliminary) game of four players, its referee, the table and its players."""
    tournament = make_tournament(games=1, ruleset=ruleset)
    entries = make_entries(tournament, 4)
    game = make_game(tournament, [entries])
    return make_official(tournament, "referee"), game.tables.get(), [e.pk for e in entries]


def test_lord_of_catan_records_the_play_order_of_a_scheduled_game(client):
    """Seed 003, ranking round: "the colours and seats are settled by the players and the starting player is
    decided by a roll of 2d6" — the referee records the resulting play order, even in a scheduled game."""
    referee, table, entries = scheduled_table("lord-of-catan")
    client.force_login(referee)
    page = client.get(reverse("referee-sheet", args=[table.game.tournament.slug, table.pk])).content.decode()
    assert "Play order chosen by the players" in page and "a roll of two dice decides who starts" in page
    rolled = [entries[2], entries[3], entries[0], entries[1]]
    record_play_order(table.pk, rolled, user=referee)
    assert list(table.seats.order_by("position").values_list("entry_id", flat=True)) == rolled
    assert Score.objects.filter(sheet__table=table).count() == 4
    assert AuditEntry.objects.filter(action="seating.play_order").count() == 1


@pytest.mark.parametrize("ruleset", ["cnc-2022", "cwc-2025"])
def test_national_and_world_scheduled_games_keep_the_play_order_of_the_seating(client, ruleset):
    """Seed 001 §3 and seed 004 §1.1.4: "the organizer will generate a schedule that determines table and play
    order for all games" — in a scheduled game nobody records another order."""
    referee, table, entries = scheduled_table(ruleset)
    client.force_login(referee)
    page = client.get(reverse("referee-sheet", args=[table.game.tournament.slug, table.pk])).content.decode()
    assert "Play order chosen by the players" not in page
    with pytest.raises(ValidationError, match="play order of a scheduled game comes from the seating"):
        record_play_order(table.pk, entries[::-1], user=referee)
    assert list(table.seats.order_by("position").values_list("entry_id", flat=True)) == entries


@pytest.fixture
def stuck():
    """A game of two tables, both signed off, left published as the sign-off race used to leave it."""
    tournament = make_tournament(slug="stuck")
    entries = make_entries(tournament, 8)
    game = make_game(tournament, [entries[:4], entries[4:]])
    referee = make_official(tournament, "referee")
    for table in game.tables.all():
        play(table, [10, 7, 6, 5], referee)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.PUBLISHED)
    return game, make_official(tournament, "organizer"), referee


def test_an_organizer_repairs_a_game_left_published_after_every_sheet_is_signed_off(stuck):
    game, organizer, _referee = stuck
    assert reconcile_game_status(game.pk, user=organizer).status == Game.Status.FINISHED
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    entry = AuditEntry.objects.get(action="seating.status_repaired")
    assert (entry.before, entry.after, entry.user) == ({"status": "published"}, {"status": "finished"}, organizer)
    reconcile_game_status(game.pk, user=organizer)  # agrees now: nothing happens
    assert AuditEntry.objects.filter(action="seating.status_repaired").count() == 1


def test_a_finished_game_with_an_open_sheet_goes_back_to_published(stuck):
    game, organizer, _referee = stuck
    RecordSheet.objects.filter(table__game=game, table__number=2).update(
        status="signed", signed_off_by=None, signed_off_at=None)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert reconcile_game_status(game.pk, user=organizer).status == Game.Status.PUBLISHED
    entry = AuditEntry.objects.get(action="seating.status_repaired")
    assert (entry.before, entry.after) == ({"status": "finished"}, {"status": "published"})


def test_only_an_organizer_repairs_a_game_status(stuck):
    game, _organizer, referee = stuck
    with pytest.raises(PermissionDenied):
        reconcile_game_status(game.pk, user=referee)
    assert Game.objects.get(pk=game.pk).status == Game.Status.PUBLISHED
    assert not AuditEntry.objects.filter(action="seating.status_repaired").exists()


def test_the_stage_page_offers_the_repair_only_for_a_game_that_disagrees(client, stuck):
    game, organizer, _referee = stuck
    client.force_login(organizer)
    page = reverse("stage-seating", kwargs={"slug": "stuck", "stage_id": game.stage_id})
    repair = reverse("game-repair-status", kwargs={"slug": "stuck", "stage_id": game.stage_id, "game_id": game.pk})
    assert repair in client.get(page).content.decode()
    response = client.post(repair, follow=True)
    html = response.content.decode()
    assert "Game 1 is now finished, as its record sheets say." in html
    assert repair not in html
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
