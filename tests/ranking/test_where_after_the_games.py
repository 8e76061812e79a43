""""Where do I sit?" once no game is in play: between games, and after the last one (issue 20 item 6)."""
import re

import pytest

from championships.models import Player
from tests.factories import make_entries, make_game, make_official, make_tournament, play

pytestmark = pytest.mark.django_db


def text(html: str) -> str:
    """What a reader sees: tags dropped, white space collapsed."""
    return " ".join(re.sub(r"<[^>]*>", " ", html).split())


@pytest.fixture
def played(django_capture_on_commit_callbacks):
    """A qualifier of 8 over two games; game 1 signed off at both tables, game 2 published but not yet played."""
    tournament = make_tournament(slug="over", games=2)
    entries = make_entries(tournament, 8)
    for entry, name in zip(entries, ["Ana", "Ben", "Cy", "Dan", "Eve", "Fay", "Gil", "Hal"]):
        Player.objects.filter(pk=entry.player_id).update(name=f"{name} Over")
        entry.player.name = f"{name} Over"
    referee = make_official(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        first = make_game(tournament, [entries[:4], entries[4:]])
        for table, vps in zip(first.tables.order_by("number"), [[10, 8, 6, 4], [10, 7, 5, 3]]):
            play(table, vps, referee)
        second = make_game(tournament, [[entries[4], entries[0], entries[5], entries[1]], entries[2:4] + entries[6:]],
                           number=2)
    return tournament, entries, referee, second


def test_after_the_last_game_where_shows_every_game_and_the_final_place(client, played,
                                                                       django_capture_on_commit_callbacks):
    tournament, entries, referee, second = played
    with django_capture_on_commit_callbacks(execute=True):
        for table, vps in zip(second.tables.order_by("number"), [[6, 10, 5, 4], [10, 8, 7, 6]]):
            play(table, vps, referee)
    name = entries[0].player.name
    page = " ".join(client.get("/t/over/where/", {"q": name}).content.decode().split())
    assert "No game's seating is published yet" not in page
    assert "Every game has been played" in page
    card = text(page.split('class="where-card"')[1])
    assert "Game 1 Table 1 position 1 Game 2 Table 1 position 2" in card
    rows = client.get("/api/tournaments/over/standings/").json()
    rank = next(row["rank"] for row in rows if row["entry"] == entries[0].pk)
    assert f"Final place: {rank}" in card


def test_between_games_where_shows_the_games_played_and_says_the_next_is_not_published(client, played):
    tournament, entries, referee, second = played
    second.status = second.Status.PLANNED
    second.save()
    page = " ".join(client.get("/t/over/where/", {"q": entries[5].player.name}).content.decode().split())
    assert "No game's seating is published yet" not in page
    assert "The next game's seating is not published yet" in page
    card = text(page.split('class="where-card"')[1])
    assert "Game 1 Table 2 position 2" in card
    assert "Game 2" not in card and "Final place" not in card
