"""Issue 32 item 9: the first reader of a player's page after a sign-off computed what changes once per results
version (the rank after each game, the standing, the qualification) from the whole tournament's standings and
history. The background refresh now stores each player's summary, re-ranking only the games whose standings
changed, and the public player page, the private page and the projector read it."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from championships import links
from ranking import refresh, standings, tasks
from ranking.public import player as player_module
from tests.factories import make_game
from tests.ranking.test_refresh import event, sign_off, worker  # noqa: F401 - the fixtures

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_games(event, worker, django_capture_on_commit_callbacks):  # noqa: F811
    """The 80 players' game 1 signed off, game 2 published, and the refresh after it run (as the worker would)."""
    for index in range(20):
        sign_off(event, index, django_capture_on_commit_callbacks)
    entries = event["entries"]
    with django_capture_on_commit_callbacks(execute=True):
        second = make_game(event["t"], [entries[i::20] for i in range(20)], number=2)
    tasks.refresh_task(event["t"].pk)
    event["tables"] = list(second.tables.order_by("number"))
    return event


def rankings_made(monkeypatch) -> list[int]:
    """How many rankings of the whole field the code makes from now on (one per game re-ranked, or the standings)."""
    made: list[int] = []
    real = player_module.ranked_standings

    def counted(*args, **kwargs):
        made.append(1)
        return real(*args, **kwargs)
    monkeypatch.setattr(player_module, "ranked_standings", counted)
    return made


def test_a_sign_off_in_game_two_re_ranks_after_game_two_only(two_games, monkeypatch,
                                                             django_capture_on_commit_callbacks):
    made = rankings_made(monkeypatch)
    sign_off(two_games, 0, django_capture_on_commit_callbacks)
    tasks.refresh_task(two_games["t"].pk)
    assert len(made) == 1  # the ranks after game 1 are what they were


def test_a_deduction_re_ranks_every_game(two_games, monkeypatch, django_capture_on_commit_callbacks):
    """A VP deduction counts after every game (I-43), so nothing of the last computation is kept."""
    from results.models import Penalty
    from results.penalties import record_penalty

    sign_off(two_games, 0, django_capture_on_commit_callbacks)
    tasks.refresh_task(two_games["t"].pk)
    made = rankings_made(monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        record_penalty(two_games["entries"][3].pk, user=two_games["referee"], kind=Penalty.Kind.LATENESS, vp=1,
                       reason="Came at 10:02")
    tasks.refresh_task(two_games["t"].pk)
    assert len(made) == 2


def test_after_the_refresh_a_players_pages_read_only_their_own_summary(client, two_games, monkeypatch,
                                                                       django_capture_on_commit_callbacks):
    sign_off(two_games, 0, django_capture_on_commit_callbacks)
    tasks.refresh_task(two_games["t"].pk)

    def whole_tournament(*args, **kwargs):
        raise AssertionError("a player's page read the whole tournament's standings or history")
    for name in ("tournament_standings", "rank_history"):
        monkeypatch.setattr(player_module, name, whole_tournament)
    monkeypatch.setattr(standings, "compute_standings", whole_tournament)
    other = two_games["entries"][41]  # not at the table just signed off: rendered when asked
    page = client.get(f"/t/cup/players/{other.player_id}/").content.decode()
    assert "Rank after" in page and 'data-label="Rank after">' in page
    own = client.get(f"/me/{links.issue(other.player)}/")
    assert own.status_code == 200 and "No rank yet" not in own.content.decode()
    assert client.get("/t/cup/screen/").status_code == 200


def test_a_players_pages_after_a_sign_off_take_a_fixed_handful_of_queries(client, two_games,
                                                                          django_capture_on_commit_callbacks):
    sign_off(two_games, 0, django_capture_on_commit_callbacks)
    tasks.refresh_task(two_games["t"].pk)
    other = two_games["entries"][41]
    with CaptureQueriesContext(connection) as queries:
        assert client.get(f"/t/cup/players/{other.player_id}/").status_code == 200
    # the tournament (its id, then itself), the entry, their seats, their tables' seats: nothing of the whole field
    assert len(queries) <= 5, [q["sql"] for q in queries]
    token = links.issue(other.player)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(f"/me/{token}/").status_code == 200
    # the link, the player's entries and registrations, their seats and their tables', penalties, what the link
    # may do, invitations: the table-mates come with the seats (11 before)
    assert len(queries) <= 8, [q["sql"] for q in queries]


def test_without_the_refresh_a_page_still_shows_the_newest_results(client, two_games,
                                                                  django_capture_on_commit_callbacks):
    """A reader faster than the job (or a site without a worker) computes the summary from the standings."""
    sign_off(two_games, 0, django_capture_on_commit_callbacks)
    assert refresh.announced_version(two_games["t"].pk) != standings.results_version(two_games["t"].pk)
    winner = two_games["tables"][0].seats.get(position=1).entry
    page = client.get(f"/t/cup/players/{winner.player_id}/").content.decode()
    assert page.count("winner") >= 2  # games 1 and 2, the second just signed off
