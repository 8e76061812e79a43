"""Publishing a game opens a record sheet at each table; taking it back closes them; both are audited."""
import pytest
from django.core.exceptions import PermissionDenied

from audit.models import AuditEntry
from results.models import RecordSheet, Score
from results.publishing import publish_game, unpublish_game
from scheduling.models import Game, Seat
from scheduling.services import generate_seating
from tests.factories import make_entries, make_official, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def planned():
    tournament = make_tournament(games=1)
    make_entries(tournament, 11)  # two tables of 4 and one of 3
    organizer = make_official(tournament, "organizer")
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
