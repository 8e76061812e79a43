"""The public ratings pages and their JSON: everyone rated, filtered, searched with the one name fold, paged; a
player's events, games and chart; players who opted out hidden (and their organizers told); CSV safe to open."""
import csv
import io
import re
from datetime import date

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from audit.models import AuditEntry
from championships.countries import country_for_code
from championships.models import Player
from engines.ratings import PROVISIONAL_GAMES
from ratings import services
from ratings.models import PlayerRating
from ratings.selectors import PAGE_SIZE
from tests.factories import make_admin, make_championship, make_official, make_player, make_user, play
from tests.site import open_link

from .helpers import running_tournament

pytestmark = pytest.mark.django_db


def _play_all(tournament, vps=(10, 8, 6, 4)):
    admin = make_admin()
    for game in tournament.games.order_by("number"):
        for table in game.tables.order_by("number"):
            play(table, list(vps), admin)


@pytest.fixture
def rated():
    """Eight players over two championships; José always wins table 1, Ahmed plays twice as often."""
    names = ["José Núñez", "Ahmed", "Chloé", "Dana", "Eitan", "Farah", "Gil", "Hala"]
    players = [make_player(name, country="AE" if i % 2 else "JO") for i, name in enumerate(names)]
    national, club = make_championship(slug="national"), make_championship(slug="club-series")
    first = running_tournament(players, day=date(2022, 6, 11), games=2, championship=national)
    second = running_tournament([players[1], *players[3:6]], day=date(2022, 9, 3), games=1, championship=club)
    _play_all(first)
    _play_all(second)
    services.recompute_all()
    return {"players": players, "first": first, "second": second, "national": national}


def _names(response) -> list[str]:
    return [row["player"] for row in response.json()["results"]]


def test_everyone_rated_best_first_with_rank_rating_uncertainty_and_provisional_mark(rated, client):
    response = client.get(reverse("ratings"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "José Núñez" in html and "provisional" in html
    api = client.get(reverse("api-ratings")).json()
    assert api["count"] == 8
    ordinals = [row["ordinal"] for row in api["results"]]
    assert ordinals == sorted(ordinals, reverse=True)
    ranks = {row["player"]: row["rank"] for row in api["results"]}
    assert ranks["José Núñez"] < ranks["Chloé"] < ranks["Hala"]  # 1st, 3rd and 4th twice in the first event
    assert ranks["Ahmed"] == 1  # second twice to José, then won in the club series: three games, surer
    for position, (above, below) in enumerate(zip(api["results"], api["results"][1:]), start=2):
        assert below["rank"] == (above["rank"] if below["ordinal"] == above["ordinal"] else position)  # 1, 2, 2, 4
    assert all(row["provisional"] for row in api["results"])  # nobody has PROVISIONAL_GAMES games yet
    assert set(api["results"][0]) == {"rank", "player_id", "player", "country", "ordinal", "mu", "sigma", "games",
                                      "provisional"}


def test_provisional_ends_after_enough_games(rated):
    ahmed = rated["players"][1]
    PlayerRating.objects.filter(player=ahmed).update(games=PROVISIONAL_GAMES)
    rows = {row["player"]: row for row in Client().get(reverse("api-ratings")).json()["results"]}
    assert rows["Ahmed"]["provisional"] is False and rows["Dana"]["provisional"] is True


def test_filters_by_country_and_championship_and_finds_names_with_the_one_fold(rated, client):
    assert set(_names(client.get(reverse("api-ratings"), {"country": "ae"}))) == {"Ahmed", "Dana", "Farah", "Hala"}
    assert set(_names(client.get(reverse("api-ratings"), {"championship": "club-series"}))) == {
        "Ahmed", "Dana", "Eitan", "Farah"}
    assert _names(client.get(reverse("api-ratings"), {"q": "jose nunez"})) == ["José Núñez"]
    assert _names(client.get(reverse("api-ratings"), {"q": "CHLOE"})) == ["Chloé"]
    page = client.get(reverse("ratings"), {"q": "zzz"}).content.decode()
    assert "No rated player matches." in page
    ranks = {row["player"]: row["rank"] for row in client.get(reverse("api-ratings")).json()["results"]}
    filtered = client.get(reverse("api-ratings"), {"country": "AE"}).json()["results"]
    assert all(row["rank"] == ranks[row["player"]] for row in filtered)  # the overall rank, not the filtered one


def test_the_search_box_has_a_label_and_a_maximum(rated, client):
    html = client.get(reverse("ratings")).content.decode()
    assert '<label for="ratings-q">' in html and 'maxlength="100"' in html
    assert client.get(reverse("ratings"), {"q": "x" * 5000}).status_code == 200


def test_players_who_opted_out_are_hidden_and_ranks_close_up(rated, client):
    jose = rated["players"][0]
    Player.objects.filter(pk=jose.pk).update(listed=False)
    api = client.get(reverse("api-ratings")).json()
    assert api["count"] == 7 and "José Núñez" not in _names(client.get(reverse("api-ratings")))
    assert api["results"][0]["rank"] == 1
    assert "José" not in client.get(reverse("ratings")).content.decode()
    assert client.get(reverse("rating-player", args=[jose.pk])).status_code == 404
    assert client.get(reverse("api-rating-player", args=[jose.pk])).status_code == 404
    assert client.get(reverse("rating-player-csv", args=[jose.pk])).status_code == 404
    assert "José" not in client.get(reverse("ratings-csv")).content.decode("utf-8-sig")


def test_their_organizer_sees_the_page_and_is_told_it_is_hidden(rated):
    jose = rated["players"][0]
    Player.objects.filter(pk=jose.pk).update(listed=False)
    organizer = Client()
    organizer.force_login(make_official(rated["first"], "organizer"))
    page = organizer.get(reverse("rating-player", args=[jose.pk]))
    assert page.status_code == 200
    assert "asked not to be listed" in page.content.decode()
    elsewhere = Client()
    elsewhere.force_login(make_official(running_tournament(
        [make_player() for _ in range(4)], day=date(2023, 1, 1)), "organizer"))
    assert elsewhere.get(reverse("rating-player", args=[jose.pk])).status_code == 404
    stranger = Client()
    stranger.force_login(make_user())
    assert stranger.get(reverse("rating-player", args=[jose.pk])).status_code == 404


def test_an_organizer_hides_a_player_on_their_wish_audited_and_lists_them_again(rated, client,
                                                                                django_capture_on_commit_callbacks):
    jose, ahmed = rated["players"][0], rated["players"][1]
    organizer = Client()
    organizer.force_login(make_official(rated["first"], "organizer"))
    url = reverse("organize-player-listing", args=[rated["first"].slug, jose.pk])
    assert "José" in client.get(reverse("ratings")).content.decode()  # the page is cached: the change must show
    with django_capture_on_commit_callbacks(execute=True):
        response = organizer.post(url, {"listed": "0"})
    assert response.status_code == 302 and response["Location"].startswith(
        reverse("organize-players", args=[rated["first"].slug]))
    assert not Player.objects.get(pk=jose.pk).listed
    assert "José" not in client.get(reverse("ratings")).content.decode()
    entry = AuditEntry.objects.filter(object_type="player", object_id=jose.pk).latest("pk")
    assert (entry.before, entry.after) == ({"listed": True}, {"listed": False})
    with django_capture_on_commit_callbacks(execute=True):
        organizer.post(url, {"listed": "1"})
    assert Player.objects.get(pk=jose.pk).listed
    assert "José" in client.get(reverse("ratings")).content.decode()
    # Ahmed also played in the club series: an organizer of the national tournament alone may not hide him.
    organizer.post(reverse("organize-player-listing", args=[rated["first"].slug, ahmed.pk]), {"listed": "0"})
    assert Player.objects.get(pk=ahmed.pk).listed


def test_a_players_page_has_events_games_and_a_chart_drawn_on_the_server(rated, client):
    ahmed = rated["players"][1]
    response = client.get(reverse("rating-player", args=[ahmed.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert html.count("<svg") == 1 and 'role="img"' in html and "<polyline" in html
    assert "<script" not in html.split("<main", 1)[1]  # the chart needs no JavaScript
    assert rated["first"].name in html and rated["second"].name in html
    data = client.get(reverse("api-rating-player", args=[ahmed.pk])).json()
    assert data["games"]["count"] == 3 and len(data["events"]) == 2
    assert [g["tournament"] for g in data["games"]["results"]] == [rated["second"].slug] + [rated["first"].slug] * 2
    assert data["events"][0]["tournament"] == rated["second"].slug
    assert set(data["games"]["results"][0]) == {"tournament", "date", "game", "table", "place", "players", "ordinal",
                                                "change"}
    assert client.get(reverse("rating-player", args=[999_999])).status_code == 404
    assert client.get(reverse("api-rating-player", args=[999_999])).json() == {
        "detail": "No rated player with that id."}


def test_the_chart_reads_the_same_in_a_language_that_writes_decimal_commas(rated, client):
    """Arabic writes 4.9 as 4,9: the page's numbers do, the chart's coordinates stay numbers SVG reads."""
    with translation.override("ar"):
        url = reverse("rating-player", args=[rated["players"][1].pk])
    html = client.get(url).content.decode()
    svg = html[html.index("<svg"):html.index("</svg>")]
    coordinates = re.findall(r' (?:x|y|cx|cy|x1|x2|y1|y2)="([^"]*)"', svg)
    assert url.startswith("/ar/") and len(coordinates) > 10
    assert all(re.fullmatch(r"-?\d+(\.\d+)?", value) for value in coordinates), coordinates
    assert all(re.fullmatch(r"(-?\d+(\.\d+)?,-?\d+(\.\d+)? ?)+", points)
               for points in re.findall(r' points="([^"]*)"', svg))


def test_lists_are_paged_in_the_page_and_the_api(client):
    players = [make_player(f"Many {i:03}") for i in range(PAGE_SIZE + 6)]
    tournament = running_tournament(players, day=date(2022, 1, 1))
    _play_all(tournament)
    services.recompute_all()
    first = client.get(reverse("api-ratings")).json()
    assert (first["count"], first["page"], first["pages"], first["page_size"]) == (PAGE_SIZE + 6, 1, 2, PAGE_SIZE)
    assert len(first["results"]) == PAGE_SIZE and first["previous"] is None
    second = open_link(client, first["next"]).json()
    assert len(second["results"]) == 6 and second["next"] is None and second["previous"].endswith("page=1")
    html = client.get(reverse("ratings"), {"page": 2}).content.decode()
    assert "Page 2 of 2" in html and html.count('class="num rank-cell"') == 6
    assert client.get(reverse("ratings"), {"page": "abc"}).status_code == 200


def test_csv_downloads_are_safe_to_open_in_a_spreadsheet(rated, client):
    Player.objects.filter(pk=rated["players"][2].pk).update(name="=HYPERLINK(1)")
    rows = list(csv.reader(io.StringIO(client.get(reverse("ratings-csv")).content.decode("utf-8-sig"))))
    assert rows[0] == ["rank", "player_id", "player", "country", "ordinal", "mu", "sigma", "games", "provisional"]
    assert "'=HYPERLINK(1)" in [row[2] for row in rows[1:]]
    games = list(csv.reader(io.StringIO(client.get(
        reverse("rating-player-csv", args=[rated["players"][1].pk])).content.decode("utf-8-sig"))))
    assert len(games) == 4 and games[0][0] == "tournament"


def test_an_unchanged_page_is_answered_304_and_a_new_rating_changes_it(rated, client,
                                                                       django_capture_on_commit_callbacks):
    first = client.get(reverse("ratings"))
    etag = first["ETag"]
    assert client.get(reverse("ratings"), HTTP_IF_NONE_MATCH=etag).status_code == 304
    with django_capture_on_commit_callbacks(execute=True):
        services.recompute_all()
    assert client.get(reverse("ratings"), HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_a_renamed_player_shows_at_once_though_pages_are_cached(rated, client, django_capture_on_commit_callbacks):
    assert "Dana" in client.get(reverse("ratings")).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        dana = Player.objects.get(name="Dana")
        dana.name, dana.country = "Dana Renamed", country_for_code("EG")
        dana.save()
    assert "Dana Renamed" in client.get(reverse("ratings")).content.decode()


@pytest.mark.parametrize("player_id", [2**63, 10**30])
def test_a_player_number_beyond_64_bits_is_not_found(client, player_id):
    """SQLite refused such a number outright (OverflowError: a 500) where PostgreSQL found no one."""
    assert client.get(f"/ratings/players/{player_id}.csv").status_code == 404
    assert client.get(f"/ratings/players/{player_id}/").status_code == 404
