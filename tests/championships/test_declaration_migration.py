"""Migration championships 0005: each existing pair declared for the championships it was about (issue 22 item 2)."""
import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from championships.models import Declaration
from tests.factories import make_player, make_tournament

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("championships", "0004_boards_per_table_and_board_limits")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_existing_pairs_are_declared_where_both_play_else_where_either_plays():
    home, home2, away = make_tournament(), make_tournament(), make_tournament()
    club = make_tournament(kind="club")
    type(club).objects.filter(pk=club.pk).update(championship=None)  # a club tournament outside any championship
    ann, bob, cy, dee, eve, fay, gus, hal = (make_player(name) for name in ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay",
                                                                            "Gus", "Hal"))  # today's model: made first
    try:
        old = migrate(BEFORE)
        Entry, Relationship = old.get_model("championships", "Entry"), old.get_model("championships", "Relationship")
        Tournament = old.get_model("championships", "Tournament")
        Tournament.objects.filter(pk=home2.pk).update(championship_id=home.championship_id)
        for tournament, players in ((home, [ann, cy]), (home2, [bob]), (away, [ann, bob, cy]), (club, [dee, eve])):
            for player in players:
                Entry.objects.create(tournament_id=tournament.pk, player_id=player.pk)
        pairs = {}
        for one, other in ((ann, bob), (ann, cy), (dee, eve), (cy, fay), (eve, fay)):
            pairs[one.name + other.name] = Relationship.objects.create(player_a_id=one.pk, player_b_id=other.pk).pk
        lonely = Relationship.objects.create(player_a_id=gus.pk, player_b_id=hal.pk).pk
    finally:  # forward to the latest migrations, also after a failure: the next tests need that schema
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    def scopes(pk):
        return sorted((d.championship_id, d.tournament_id) for d in Declaration.objects.filter(relationship_id=pk))

    # both play in both championships (Bob through the home championship's second tournament)
    assert scopes(pairs["AnnBob"]) == sorted([(home.championship_id, None), (away.championship_id, None)])
    assert scopes(pairs["AnnCy"]) == sorted([(home.championship_id, None), (away.championship_id, None)])
    assert scopes(pairs["DeeEve"]) == [(None, club.pk)]
    # Fay plays nowhere: the pair belongs where Cy (or Eve) plays
    assert scopes(pairs["CyFay"]) == sorted([(home.championship_id, None), (away.championship_id, None)])
    assert scopes(pairs["EveFay"]) == [(None, club.pk)]
    assert scopes(lonely) == []  # nobody plays anywhere: no declaration, and it still keeps them apart
