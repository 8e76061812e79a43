"""The database itself refuses what the rules forbid, whatever path a write takes."""
import pytest
from django.db import IntegrityError, transaction

from championships.models import Entry, Relationship, StaffRole, Stage
from scheduling.models import Game, Seat, Table
from tests.factories import make_entries, make_player, make_tournament, make_user

pytestmark = pytest.mark.django_db


def refused(create) -> bool:
    try:
        with transaction.atomic():
            create()
    except IntegrityError:
        return True
    return False


def test_relationship_with_oneself_is_refused():
    player = make_player()
    assert refused(lambda: Relationship.objects.create(player_a=player, player_b=player))


def test_relationship_is_stored_once_per_pair():
    one, other = sorted([make_player(), make_player()], key=lambda p: p.pk)
    Relationship.objects.create(player_a=one, player_b=other)
    assert refused(lambda: Relationship.objects.create(player_a=one, player_b=other))
    assert refused(lambda: Relationship.objects.create(player_a=other, player_b=one))


def test_player_entered_once_per_tournament():
    tournament = make_tournament()
    entry = make_entries(tournament, 1)[0]
    assert refused(lambda: Entry.objects.create(tournament=tournament, player=entry.player))


def test_player_seated_at_most_once_per_game():
    tournament = make_tournament()
    entries = make_entries(tournament, 5)
    game = Game.objects.create(tournament=tournament, stage=tournament.stages.get(), number=1)
    first, second = Table.objects.create(game=game, number=1), Table.objects.create(game=game, number=2)
    Seat.objects.create(table=first, game=game, entry=entries[0], position=1)
    assert refused(lambda: Seat.objects.create(table=second, game=game, entry=entries[0], position=1))


def test_positions_unique_per_table_and_in_range():
    tournament = make_tournament()
    entries = make_entries(tournament, 2)
    game = Game.objects.create(tournament=tournament, stage=tournament.stages.get(), number=1)
    table = Table.objects.create(game=game, number=1)
    Seat.objects.create(table=table, game=game, entry=entries[0], position=1)
    assert refused(lambda: Seat.objects.create(table=table, game=game, entry=entries[1], position=1))
    assert refused(lambda: Seat.objects.create(table=table, game=game, entry=entries[1], position=5))


def test_game_numbers_unique_in_a_tournament():
    tournament = make_tournament()
    stage = tournament.stages.get()
    Game.objects.create(tournament=tournament, stage=stage, number=1)
    assert refused(lambda: Game.objects.create(tournament=tournament, stage=stage, number=1))


def test_stage_needs_a_game_and_a_unique_order():
    tournament = make_tournament()
    assert refused(lambda: Stage.objects.create(tournament=tournament, order=1, kind="final", name="Again",
                                                 games=1, seating="seeded"))
    assert refused(lambda: Stage.objects.create(tournament=tournament, order=2, kind="final", name="Empty",
                                                 games=0, seating="seeded"))


def test_referee_role_needs_a_tournament():
    tournament = make_tournament()
    user = make_user()
    assert refused(lambda: StaffRole.objects.create(user=user, role="referee",
                                                    championship=tournament.championship))
    assert refused(lambda: StaffRole.objects.create(user=user, role="organizer"))
