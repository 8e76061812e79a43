"""A running tournament the public page tests share: two tables of four, the first signed off."""
import pytest

from tests.factories import make_entries, make_game, make_official, make_tournament, play


@pytest.fixture
def cup(django_capture_on_commit_callbacks):
    tournament = make_tournament(slug="cup", name="Cup", status="running")
    entries = make_entries(tournament, 8)
    referee = make_official(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(tournament, [entries[:4], entries[4:]])
        play(game.tables.order_by("number").first(), [10, 8, 6, 4], referee)
    return tournament
