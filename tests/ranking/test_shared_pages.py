"""Issue 34 item 4: the public pages the app does not keep whole (lists across tournaments, exports, PDFs, the
legacy API) are still marked for the proxy to keep a second for anyone not signed in; never a signed-in reader's,
never an error's."""
import pytest

from tests.factories import make_entries, make_game, make_official, make_tournament, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(django_capture_on_commit_callbacks):
    tournament = make_tournament(slug="cup", name="Cup", status="running")
    entries = make_entries(tournament, 4)
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(tournament, [entries])
        play(game.tables.get(), [10, 8, 6, 4], make_official(tournament))
    return tournament


def directives(response) -> set[str]:
    return {d.strip() for d in response.headers.get("Cache-Control", "").split(",") if d.strip()}


ADDRESSES = ["/", "/c/{championship}/", "/t/cup/standings.csv", "/t/cup/standings.xlsx", "/t/cup/standings.pdf",
             "/ratings/", "/ratings.csv", "/ratings.xlsx", "/api/tournaments/", "/api/tournaments/cup/standings/",
             "/api/tournaments/cup/games/1/seating/", "/api/ratings/"]


@pytest.mark.parametrize("address", ADDRESSES)
def test_an_anonymous_reader_s_page_may_be_kept_a_second_and_a_signed_in_one_never(client, admin_client, cup,
                                                                                   address):
    address = address.format(championship=cup.championship.slug)
    anonymous = client.get(address)
    assert anonymous.status_code == 200
    assert directives(anonymous) >= {"public", "max-age=0", "must-revalidate", "s-maxage=1"}
    assert "Cookie" in anonymous.headers["Vary"]  # nginx keeps visitors with cookies apart
    staff = admin_client.get(address)
    assert staff.status_code == 200
    assert not directives(staff) & {"public", "s-maxage=1"}


@pytest.mark.parametrize("address", ["/c/no-such-championship/", "/t/nowhere/standings.csv",
                                     "/api/tournaments/nowhere/standings/", "/ratings/players/999999/"])
def test_an_answer_that_is_not_a_page_is_never_shared(client, cup, address):
    response = client.get(address)
    assert response.status_code == 404
    assert "s-maxage=1" not in directives(response)
