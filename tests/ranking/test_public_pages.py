"""The public pages: overview, "where do I sit?", games, players, standings, championship, projector; live updates
answered 304 while nothing changed; a fixed number of queries whatever the number of players."""
import csv
import io

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from audit.models import AuditEntry
from championships.models import Tournament
from core.names import fold
from results.announcements import post_announcement, remove_announcement
from results.models import ANNOUNCEMENT_MAX, Announcement
from tests import factories
from tests.factories import make_entries, make_game, make_official, make_player, make_tournament, make_user, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def day(django_capture_on_commit_callbacks):
    """A running qualifier of 8 (4 advance): game 1 signed off at both tables, game 2 published and in play."""
    tournament = make_tournament(slug="cup", name="Cup", status="running", advance_count=4)
    Tournament.objects.create(championship=tournament.championship, name="Finals", slug="finals", kind="finals",
                              ruleset="cnc-2022")
    names = ["Zoë Ångström", "أحمد الفارسي", "Noa Levi", "José Muñoz", "Sara Rahimi", "יונתן כהן", "Chen Wei",
             "Ahmad Haddad"]
    entries = [tournament.entries.create(player=make_player(name)) for name in names]
    referee = make_official(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        game1 = make_game(tournament, [entries[:4], entries[4:]])
        first, second = game1.tables.order_by("number")
        play(first, [10, 8, 6, 4], referee)
        play(second, [10, 7, 5, 3], referee)
        game2 = make_game(tournament, [[entries[0], entries[4], entries[1], entries[5]],
                                       [entries[2], entries[6], entries[3], entries[7]]], number=2)
    return {"t": tournament, "entries": entries, "referee": referee, "game1": game1, "game2": game2}


def html(response) -> str:
    assert response.status_code == 200
    return response.content.decode()


# ---- where do I sit? ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("typed, name", [
    ("zoe", "Zoë Ångström"), ("ANGSTROM", "Zoë Ångström"), ("jose munoz", "José Muñoz"),
    ("احمد", "أحمد الفارسي"),  # hamza on the alef ignored
    ("أَحْمَد", "أحمد الفارسي"),  # vowel marks typed, none stored
    ("فارسی", "أحمد الفارسي"),  # Persian yeh for the Arabic one
    ("יונתן", "יונתן כהן"), ("ﬁ", "fi"),
])
def test_names_compare_without_accents_case_or_vowel_marks(typed, name):
    assert fold(typed) in fold(name)


def test_where_finds_a_part_of_a_name_with_table_and_position_in_the_current_and_next_game(client, day):
    page = html(client.get("/t/cup/where/", {"q": "angstrom"}))
    assert "Zoë Ångström" in page
    assert "Table 1" in page and "position 1" in page
    player = day["entries"][0].player
    assert reverse("public-player", args=["cup", player.pk]) in page


def test_where_finds_arabic_names_and_lists_several_matches(client, day):
    arabic = html(client.get("/t/cup/where/", {"q": "احمد"}))
    assert "أحمد الفارسي" in arabic
    several = html(client.get("/t/cup/where/", {"q": "ah"}))  # Ahmad Haddad and Sara Rahimi
    assert "Ahmad Haddad" in several and "Sara Rahimi" in several and "Noa Levi" not in several


def test_where_says_when_nobody_matches_and_every_input_has_a_maximum_length(client, day):
    page = html(client.get("/t/cup/where/", {"q": "nobody-like-this"}))
    assert "Nobody in this tournament" in page
    assert 'maxlength="100"' in page
    assert 'maxlength="100"' in html(client.get("/t/cup/"))


def test_where_before_any_game_is_published_says_so(client):
    tournament = make_tournament(slug="early")
    make_entries(tournament, 4)
    page = html(client.get("/t/early/where/", {"q": "player"}))
    assert "No game's seating is published yet" in page


# ---- overview, game, player -------------------------------------------------------------------------------------

def test_overview_shows_format_current_game_with_its_tables_and_announcements(client, day):
    post_announcement(day["t"].pk, "Game 2 starts at 14:00 sharp.", user=day["referee"])
    page = html(client.get("/t/cup/"))
    assert "Game 2" in page and "0 tables done" in page and "2 in play" in page
    assert "Game 2 starts at 14:00 sharp." in page
    assert 'id="map-study-clock"' not in page  # national rules: no study time (only 004 §1.1.7 has one)
    assert "Podium" not in page


def test_overview_shows_the_podium_once_the_last_stage_is_signed_off(client, django_capture_on_commit_callbacks):
    tournament = make_tournament(slug="done", games=1, kind="world", championship=None)
    entries = make_entries(tournament, 4)
    referee = make_official(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(tournament, [entries])
        play(game.tables.get(), [10, 8, 6, 4], referee)
    page = html(client.get("/t/done/"))
    assert "Podium" in page and "Champion" in page
    assert page.index(entries[0].player.name) < page.index(entries[1].player.name)


def test_game_page_shows_seats_in_play_order_and_results_once_signed_off(client, day):
    page = html(client.get("/t/cup/games/1/"))
    names = [e.player.name for e in day["entries"][:4]]
    assert [page.index(n) for n in names] == sorted(page.index(n) for n in names)
    assert "10 VP" in page and "winner" in page and "place 4" in page
    in_play = html(client.get("/t/cup/games/2/"))
    assert "VP" not in in_play.split('id="game-live"')[1].split("</ul>")[0].replace("VP share", "")


def test_unknown_tournament_game_or_player_answers_404(client, day):
    other = make_player("Not entered")
    for url in ("/t/nope/", "/t/nope/where/", "/t/cup/games/3/", "/t/cup/games/9/", f"/t/cup/players/{other.pk}/",
                "/t/nope/screen/", "/t/nope/version/", "/c/nope/", "/t/nope/standings/"):
        assert client.get(url).status_code == 404, url


def test_player_page_lists_each_game_with_opponents_vp_place_share_and_rank_after(client, day):
    zoe = day["entries"][0].player
    page = html(client.get(f"/t/cup/players/{zoe.pk}/"))
    assert "Game 1" in page and "Game 2" in page
    for opponent in ("أحمد الفارسي", "Noa Levi", "José Muñoz"):
        assert opponent in page
    assert "35.71&nbsp;%" in page  # 10 of 28
    assert "In a qualifying place" in page


# ---- standings ------------------------------------------------------------------------------------------------

def test_standings_link_each_player_and_mark_the_qualification_line(client, day):
    page = html(client.get("/t/cup/standings/"))
    for entry in day["entries"]:
        assert reverse("public-player", args=["cup", entry.player_id]) in page
    assert page.count(" cutoff") == 1
    assert "35.71\u00a0%" in page


def test_ties_across_the_qualification_line_are_marked_as_awaiting_a_draw(client, django_capture_on_commit_callbacks):
    tournament = make_tournament(slug="tie", games=1, advance_count=1)
    Tournament.objects.create(championship=tournament.championship, name="F", slug="f", kind="finals",
                              ruleset="cnc-2022")
    entries = make_entries(tournament, 8)
    referee = make_official(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(tournament, [entries[:4], entries[4:]])
        for table in game.tables.all():
            play(table, [10, 6, 6, 6], referee)
    page = html(client.get("/t/tie/standings/"))
    assert page.count("awaiting-draw") == 2
    assert "a card draw decides" in page


def test_tiebreak_values_get_the_decimals_that_tell_neighbours_apart():
    from ranking.columns import Column
    from ranking.public.standings import places_needed

    rows = [{"vp_share": 0.357142}, {"vp_share": 0.357141}, {"vp_share": 0.2}]
    assert places_needed(Column("vp_share"), rows) == 4
    assert places_needed(Column("vp_share"), [{"vp_share": 0.5}, {"vp_share": 0.5}]) == 2


def test_csv_header_is_the_same_machine_keys_in_every_language(client, day):
    for prefix in ("", "/ar", "/he", "/fa"):
        rows = list(csv.reader(io.StringIO(client.get(f"{prefix}/t/cup/standings.csv").content.decode("utf-8-sig"))))
        assert rows[0][:3] == ["rank", "player", "country"] and rows[0][-1] == "tied"
        assert rows[1][-1] in ("true", "false")


@pytest.mark.parametrize("prefix, lang, direction", [("", "en", "ltr"), ("/ar", "ar", "rtl"), ("/he", "he", "rtl"),
                                                     ("/fa", "fa", "rtl")])
def test_every_public_page_has_its_language_and_direction(client, day, prefix, lang, direction):
    zoe = day["entries"][0].player
    for path in ("/", "/t/cup/", "/t/cup/where/?q=a", "/t/cup/games/1/", f"/t/cup/players/{zoe.pk}/",
                 "/t/cup/standings/", "/t/cup/screen/", f"/c/{day['t'].championship.slug}/"):
        assert f'<html lang="{lang}" dir="{direction}">' in html(client.get(prefix + path)), path


# ---- championship and projector -------------------------------------------------------------------------------

def test_championship_page_shows_who_qualified_from_where_and_the_waiting_list(client, day):
    finals = Tournament.objects.get(slug="finals")
    winner = day["entries"][0]
    finals.entries.create(player=winner.player, source_tournament=day["t"], source_rank=1)
    page = html(client.get(f"/c/{day['t'].championship.slug}/"))
    assert "Qualified" in page and winner.player.name in page.split("Waiting list")[0]
    assert "Waiting list" in page and "Finals" in page


def test_projector_lists_standings_seating_alphabetically_and_announcements_without_inline_script(client, day):
    post_announcement(day["t"].pk, "Lunch at 13:00", user=day["referee"])
    page = html(client.get("/t/cup/screen/"))
    assert "find your table" in page and "Lunch at 13:00" in page
    seating = page.split("find your table")[1]
    latin = ["Ahmad Haddad", "Chen Wei", "José Muñoz", "Noa Levi", "Sara Rahimi", "Zoë Ångström"]
    assert [seating.index(n) for n in latin] == sorted(seating.index(n) for n in latin)
    assert "<script>" not in page and "style=" not in page and 'class="site-header"' not in page


# ---- live: 304 while nothing changed ----------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/t/cup/standings/", "/t/cup/games/2/", "player", "/t/cup/screen/",
                                  "/t/cup/version/", "/t/cup/"])
def test_unchanged_pages_answer_304_and_a_sign_off_changes_them(client, day, path,
                                                                  django_capture_on_commit_callbacks):
    if path == "player":
        path = f"/t/cup/players/{day['entries'][0].player_id}/"
    first = client.get(path)
    etag = first.headers["ETag"]
    assert revalidated_each_time(first.headers["Cache-Control"])
    again = client.get(path, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    with django_capture_on_commit_callbacks(execute=True):
        play(day["game2"].tables.order_by("number").first(), [10, 9, 2, 3], day["referee"])
    changed = client.get(path, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed.headers["ETag"] != etag


def test_an_unchanged_poll_renders_nothing_and_reads_little(client, day, django_assert_max_num_queries):
    etag = client.get("/t/cup/standings/").headers["ETag"]
    with django_assert_max_num_queries(1):
        assert client.get("/t/cup/standings/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    version = client.get("/t/cup/version/")
    assert set(version.json()) == {"version", "coming", "soon", "now"}
    with django_assert_max_num_queries(1):
        assert client.get("/t/cup/version/", HTTP_IF_NONE_MATCH=version.headers["ETag"]).status_code == 304


@pytest.mark.parametrize("path", ["/t/cup/", "/ar/t/cup/where/?q=noa", "/t/cup/games/2/", "player",
                                  "/he/t/cup/standings/", "/t/cup/screen/"])
def test_anonymous_readers_share_a_cached_page_until_the_results_change(client, day, path,
                                                                         django_assert_max_num_queries,
                                                                         django_capture_on_commit_callbacks):
    if path == "player":
        path = f"/t/cup/players/{day['entries'][4].player_id}/"
    first = client.get(path)
    assert first.status_code == 200 and not first.cookies and b"csrfmiddlewaretoken" not in first.content
    with django_assert_max_num_queries(1):  # the tournament's id; the version and the page come from the cache
        again = client.get(path)
    assert again.content == first.content and "Cookie" in again.headers["Vary"]
    with django_capture_on_commit_callbacks(execute=True):
        play(day["game2"].tables.order_by("number").first(), [10, 9, 2, 3], day["referee"])
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    assert len(queries) > 1  # a new results version: rendered afresh


def test_a_page_showing_the_running_map_study_clock_is_never_stored(client, day,
                                                                   django_capture_on_commit_callbacks):
    from scheduling.clocks import change_clock

    with django_capture_on_commit_callbacks(execute=True):
        Tournament.objects.filter(pk=day["t"].pk).update(ruleset="cwc-2025")  # 004 §1.1.7: study time
        change_clock(day["game2"].pk, "start", user=day["referee"])
    assert 'id="map-study-clock"' in html(client.get("/t/cup/"))
    assert "data-server-now-ms" in html(client.get("/t/cup/"))
    with CaptureQueriesContext(connection) as queries:
        assert "data-server-now-ms" in html(client.get("/t/cup/"))
    assert len(queries) > 1  # rendered again: the clock shows the server's time of this request


def test_a_slug_given_to_another_tournament_is_looked_up_again(client, django_capture_on_commit_callbacks):
    first = make_tournament(slug="moved", name="First")
    before = client.get("/t/moved/version/").json()["version"]
    assert "First" in html(client.get("/t/moved/"))
    with django_capture_on_commit_callbacks(execute=True):
        first.slug = "old"
        factories.admin_save(first)  # the one place a slug changes
    make_tournament(slug="moved", name="Second")
    assert client.get("/t/moved/version/").json()["version"] != before
    assert "Second" in html(client.get("/t/moved/")) and "First" in html(client.get("/t/old/"))


def test_signed_in_staff_never_get_or_leave_a_cached_page(client, day):
    anonymous = html(client.get("/t/cup/standings/"))
    client.force_login(day["referee"])
    staff = html(client.get("/t/cup/standings/"))
    assert "Staff sign-in" in anonymous and "Staff sign-in" not in staff and "csrfmiddlewaretoken" in staff
    client.logout()
    assert html(client.get("/t/cup/standings/")) == anonymous


def test_the_etag_differs_by_language_and_for_htmx_fragments(client, day):
    english = client.get("/t/cup/standings/").headers["ETag"]
    arabic = client.get("/ar/t/cup/standings/").headers["ETag"]
    fragment = client.get("/t/cup/standings/", HTTP_HX_REQUEST="true")
    assert len({english, arabic, fragment.headers["ETag"]}) == 3
    assert "HX-Request" in fragment.headers["Vary"]
    assert "<html" not in fragment.content.decode()


def test_an_announcement_changes_the_version(client, day, django_capture_on_commit_callbacks):
    before = client.get("/t/cup/version/").json()["version"]
    with django_capture_on_commit_callbacks(execute=True):
        post_announcement(day["t"].pk, "Hello", user=day["referee"])
    assert client.get("/t/cup/version/").json()["version"] != before


# ---- announcements ---------------------------------------------------------------------------------------------

def test_officials_post_and_remove_announcements_audited_others_may_not(day):
    announcement = post_announcement(day["t"].pk, "  Table 3   moved to the terrace ", user=day["referee"])
    assert announcement.text == "Table 3 moved to the terrace"
    with pytest.raises(PermissionDenied):
        post_announcement(day["t"].pk, "Spam", user=make_user())
    with pytest.raises(PermissionDenied):
        remove_announcement(announcement.pk, user=make_user())
    with pytest.raises(ValidationError):
        post_announcement(day["t"].pk, "x" * (ANNOUNCEMENT_MAX + 1), user=day["referee"])
    with pytest.raises(ValidationError):
        post_announcement(day["t"].pk, "   ", user=day["referee"])
    remove_announcement(announcement.pk, user=day["referee"])
    remove_announcement(announcement.pk, user=day["referee"])  # a double tap is not an error
    assert not Announcement.objects.exists()
    actions = list(AuditEntry.objects.filter(action__startswith="announcement.").order_by("pk")
                   .values_list("action", flat=True))
    assert actions == ["announcement.posted", "announcement.removed"]


def test_the_desk_posts_and_takes_down_announcements(client, day):
    client.force_login(day["referee"])
    desk = html(client.get("/referee/cup/"))
    assert f'maxlength="{ANNOUNCEMENT_MAX}"' in desk and "Announcement to everyone" in desk
    client.post("/referee/cup/announcements/", {"text": "Break until 15:00"})
    announcement = Announcement.objects.get()
    assert "Break until 15:00" in html(client.get("/t/cup/"))
    client.post(f"/referee/cup/announcements/{announcement.pk}/remove/")
    assert not Announcement.objects.exists()
    client.force_login(make_user())
    assert client.post("/referee/cup/announcements/", {"text": "x"}).status_code == 403


def test_publishing_links_the_organizer_to_the_game_page(client, day):
    from results.publishing import unpublish_game

    organizer = make_official(day["t"], "organizer")
    unpublish_game(day["game2"].pk, user=organizer)
    client.force_login(organizer)
    stage = day["t"].stages.get()
    response = client.post(f"/organize/cup/stages/{stage.pk}/games/{day['game2'].pk}/publish/", follow=True)
    assert reverse("public-game", args=["cup", 2]) in response.content.decode()


# ---- a fixed number of queries ---------------------------------------------------------------------------------

def event(tables: int, django_capture_on_commit_callbacks):
    tournament = make_tournament(slug=f"big{tables}", advance_count=4, status="running")
    Tournament.objects.create(championship=tournament.championship, name="F", slug=f"f{tables}", kind="finals",
                              ruleset="cnc-2022")
    entries = make_entries(tournament, 4 * tables)
    referee = make_official(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(tournament, [entries[i:i + 4] for i in range(0, len(entries), 4)])
        for table in game.tables.all()[:2]:
            play(table, [10, 7, 5, 3], referee)
        make_game(tournament, [entries[i:i + 4] for i in range(0, len(entries), 4)][::-1], number=2)
    return tournament, entries


@pytest.mark.parametrize("tables", [2, 50])  # 8 and 200 players
def test_public_pages_take_a_fixed_number_of_queries(client, tables, django_assert_max_num_queries,
                                                     django_capture_on_commit_callbacks):
    tournament, entries = event(tables, django_capture_on_commit_callbacks)
    slug = tournament.slug
    pages = {f"/t/{slug}/": 10, f"/t/{slug}/where/?q=player": 6, f"/t/{slug}/games/1/": 7,
             f"/t/{slug}/players/{entries[0].player_id}/": 17, f"/t/{slug}/standings/": 9,
             f"/t/{slug}/screen/": 10, f"/c/{tournament.championship.slug}/": 12, "/": 3}
    for url, limit in pages.items():
        with django_assert_max_num_queries(limit):
            assert client.get(url).status_code == 200, url


def test_long_standings_and_games_come_in_pages(client):
    from ranking.public.game import TABLES_PAGE
    from ranking.public.standings import STANDINGS_PAGE

    tournament = make_tournament(slug="crowd")
    entries = make_entries(tournament, 4 * (TABLES_PAGE + 1))
    make_game(tournament, [entries[i:i + 4] for i in range(0, len(entries), 4)])
    first = html(client.get("/t/crowd/standings/"))
    assert first.count('class="player-cell"') == STANDINGS_PAGE and "Page 1 of 2" in first and "?page=2" in first
    second = html(client.get("/t/crowd/standings/?page=2"))
    assert second.count('class="player-cell"') == len(entries) - STANDINGS_PAGE
    assert html(client.get("/t/crowd/standings/?page=x")).count('class="player-cell"') == STANDINGS_PAGE
    game = html(client.get("/t/crowd/games/1/"))
    assert game.count('<li class="public-table') == TABLES_PAGE and f"0 of {TABLES_PAGE + 1} tables" in game
    assert html(client.get("/t/crowd/games/1/?page=2")).count('<li class="public-table') == 1


def test_public_pages_answer_from_the_database_when_the_cache_refuses(client, day):
    from django.test import override_settings

    from tests.test_cache_outage import REFUSING

    zoe = day["entries"][0].player_id
    with override_settings(CACHES=REFUSING):
        for path in ("/t/cup/", "/t/cup/where/?q=zoe", "/t/cup/games/1/", f"/t/cup/players/{zoe}/",
                     "/t/cup/standings/", "/t/cup/screen/", "/t/cup/version/", f"/c/{day['t'].championship.slug}/"):
            response = client.get(path)
            assert response.status_code == 200, path
            assert "ETag" not in response.headers  # no version to compare: every request is answered in full


def test_one_podium_for_the_console_and_the_public_pages_also_when_closed_early(client,
                                                                                django_capture_on_commit_callbacks):
    """A tournament closed before its last game: the console, the certificates and the public overview
    name the same podium, and a player who never played is not on it."""
    from championships.setup import close_tournament
    from ranking.selectors import podium

    tournament = make_tournament(slug="closed-early", games=2, kind="world", championship=None)
    entries = make_entries(tournament, 5)  # the fifth never plays
    referee = make_official(tournament)
    organizer = make_official(tournament, "organizer")
    with django_capture_on_commit_callbacks(execute=True):
        play(make_game(tournament, [entries[:4]]).tables.get(), [10, 8, 6, 4], referee)
    assert podium(tournament) == [] and "Podium" not in html(client.get("/t/closed-early/"))
    with django_capture_on_commit_callbacks(execute=True):
        close_tournament(tournament.pk, user=organizer, reason="Storm warning: the hall closes")
    tournament.refresh_from_db()
    names = [row["player"] for row in podium(tournament)]
    assert names == [e.player.name for e in entries[:3]]
    page = html(client.get("/t/closed-early/"))
    podium_html = page[page.index("Podium"):]
    assert all(name in podium_html for name in names) and entries[4].player.name not in podium_html


def revalidated_each_time(cache_control: str) -> bool:
    """A browser asks again before each use: `no-cache` (staff), or, for a page anyone is shown alike, stale at once
    and to be revalidated (`max-age=0, must-revalidate`), which lets the proxy keep it a second (`s-maxage`)."""
    directives = {d.strip() for d in cache_control.split(",")}
    return "no-cache" in directives or {"max-age=0", "must-revalidate"} <= directives


def test_a_page_anyone_is_shown_alike_may_be_kept_a_second_by_the_proxy_and_a_signed_in_one_never(
        client, day, admin_client):
    """Issue 34 item 4: nginx keeps what the app marks shareable (s-maxage) for a second; staff pages stay private."""
    anonymous = client.get("/t/cup/standings/").headers["Cache-Control"]
    assert {d.strip() for d in anonymous.split(",")} >= {"public", "max-age=0", "must-revalidate", "s-maxage=1"}
    staff = admin_client.get("/t/cup/standings/").headers["Cache-Control"]
    assert "private" in staff and "s-maxage" not in staff and "public" not in staff
    poll = client.get("/t/cup/version/").headers["Cache-Control"]  # a second late at most: within the 5 s target
    assert "s-maxage=1" in poll and "public" in poll
    assert "private" in admin_client.get("/t/cup/version/").headers["Cache-Control"]
