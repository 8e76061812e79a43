"""The stream overlay (`/t/<slug>/overlay/`, issue 27 item 7): the current game's table in play order, the VP the
referee saves shown at once as provisional, then as final once signed off; only public data; cached and bounded
for anonymous readers, 304 while nothing changed."""
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation
from django.utils.translation import gettext as _

from championships.models import Tournament
from results.sheets import SheetInput, save_entry, sign, sign_off
from scheduling.clocks import change_clock
from tests.factories import make_entries, make_game, make_official, make_player, make_tournament
from tests.ranking.test_public_pages import revalidated_each_time
from web.public import overlay

pytestmark = pytest.mark.django_db

NAMES = ["Zoë Ångström", "أحمد الفارسي", "Noa Levi", "יונתן כהן"]


@pytest.fixture
def final(django_capture_on_commit_callbacks):
    """A finals tournament whose game 1 is one table, in play; its players have emails and birth dates."""
    tournament = make_tournament(slug="final", name="Grand Final", kind="finals", status="running", games=1)
    entries = [tournament.entries.create(player=make_player(name, email=f"p{n}@example.org"))
               for n, name in enumerate(NAMES)]
    referee = make_official(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(tournament, [[entries[2], entries[0], entries[3], entries[1]]])  # play order ≠ entry order
    return {"t": tournament, "entries": entries, "referee": referee, "table": game.tables.get()}


@pytest.fixture
def fresh_tokens(monkeypatch):
    """Sheet tokens not kept: a test sees a save at once instead of within SHEET_SECONDS."""
    monkeypatch.setattr(overlay, "SHEET_SECONDS", 0)


def page(client, path="/t/final/overlay/", **extra) -> str:
    response = client.get(path, **extra)
    assert response.status_code == 200
    return response.content.decode()


def enter(final, vps):
    """The referee saves the VP in play order (not signed off)."""
    seats = list(final["table"].seats.order_by("position"))
    sheet = final["table"].sheet
    sheet.refresh_from_db()
    return save_entry(sheet.pk, SheetInput(dict(zip((s.entry_id for s in seats), vps))), user=final["referee"],
                      base_version=sheet.version)


def seat_names(html: str) -> list[str]:
    return re.findall(r'<span class="overlay-name"><bdi>([^<]*)</bdi>', html)


def test_unknown_tournament_is_404(client):
    assert client.get("/t/nowhere/overlay/").status_code == 404
    assert client.get("/t/nowhere/overlay/version/").status_code == 404


def test_shows_the_final_tables_players_in_play_order_with_no_vp_yet(client, final):
    html = page(client)
    assert seat_names(html) == ["Noa Levi", "Zoë Ångström", "יונתן כהן", "أحمد الفارسي"]
    assert html.count('<li class="overlay-seat') == 4 and "overlay-vp-number" not in html
    assert _("Provisional: not signed off yet") not in html and "Table 1" not in html  # the only table
    assert "Grand Final" in html and "Game 1" in html


def test_a_referee_save_shows_provisional_vp_at_once_then_final_once_signed_off(client, final, fresh_tokens,
                                                                                 django_capture_on_commit_callbacks):
    before = client.get("/t/final/overlay/")
    sheet = enter(final, [7, 10, 5, 8])
    html = page(client, HTTP_IF_NONE_MATCH=before.headers["ETag"])
    assert re.findall(r'overlay-vp-number">(\d+)<', html) == ["7", "10", "5", "8"]
    assert _("Provisional: not signed off yet") in html and "overlay-vp provisional" in html
    assert _("Winner") not in html  # not before the sign-off
    assert "10 VP" not in page(client, "/t/final/games/1/")  # the other public pages wait for the sign-off
    with django_capture_on_commit_callbacks(execute=True):
        for seat in final["table"].seats.all():
            sheet = sign(sheet.pk, seat.entry_id, user=final["referee"], method="tap", version=sheet.version)
        sign_off(sheet.pk, user=final["referee"], version=sheet.version)
    html = page(client)
    assert _("Final result") in html and _("Provisional: not signed off yet") not in html
    assert re.findall(r'overlay-vp-number">(\d+)<', html) == ["7", "10", "5", "8"]
    assert re.search(r'overlay-seat winner">.*?Zoë Ångström.*?' + re.escape(_("Winner")), html, re.S)


def test_in_arabic_the_page_is_right_to_left_and_translated(client, final, fresh_tokens):
    enter(final, [7, 10, 5, 8])
    html = page(client, "/ar/t/final/overlay/")
    assert 'lang="ar" dir="rtl"' in html
    with translation.override("ar"):
        assert _("Provisional: not signed off yet") in html


def test_only_public_data_no_links_and_nothing_inline(client, final):
    html = page(client)
    assert "@example.org" not in html and "1990" not in html  # emails and dates of birth
    assert "<a " not in html and "/me/" not in html
    assert 'title="United Arab Emirates"' in html and ">AE</abbr>" in html  # the country, as on the public pages
    assert not re.search(r"<script(?![^>]*\bsrc=)", html) and "style=" not in html  # the site's CSP
    response = client.get("/t/final/overlay/")
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]


def test_a_game_of_several_tables_shows_the_table_asked_for(client):
    tournament = make_tournament(slug="semis", status="running")
    entries = make_entries(tournament, 8)
    make_game(tournament, [entries[:4], entries[4:]])
    names = [e.player.name for e in entries]
    assert seat_names(page(client, "/t/semis/overlay/")) == names[:4]
    second = page(client, "/t/semis/overlay/?table=2")
    assert seat_names(second) == names[4:] and "Game 1 · Table 2" in second
    for typed in ("abc", "0", "-2", "٢"):  # anything but a positive number: the first table
        assert seat_names(page(client, f"/t/semis/overlay/?table={typed}")) == names[:4]
    assert "Game 1 has no table 9." in page(client, "/t/semis/overlay/?table=9")
    assert overlay.table_number("9" * 7) == overlay.TABLE_MAX + 1 and overlay.table_number("9" * 8) == 1


def test_before_any_game_the_overlay_says_so(client):
    make_tournament(slug="early")
    assert _("No game is being played yet.") in page(client, "/t/early/overlay/")


def test_unchanged_overlay_answers_304_and_a_save_changes_it(client, final, fresh_tokens):
    for path in ("/t/final/overlay/", "/t/final/overlay/version/"):
        first = client.get(path)
        assert revalidated_each_time(first.headers["Cache-Control"])
        assert client.get(path, HTTP_IF_NONE_MATCH=first.headers["ETag"]).status_code == 304
    version = client.get("/t/final/overlay/version/")
    assert set(version.json()) == {"version", "coming", "soon", "now"}
    enter(final, [7, 10, 5, 8])
    changed = client.get("/t/final/overlay/version/", HTTP_IF_NONE_MATCH=version.headers["ETag"])
    assert changed.status_code == 200 and changed.json()["version"] != version.json()["version"]


@pytest.mark.parametrize("tables", [1, 12])
def test_queries_are_bounded_and_anonymous_readers_share_the_cached_page(client, tables,
                                                                          django_assert_max_num_queries):
    tournament = make_tournament(slug="big", status="running")
    entries = make_entries(tournament, 4 * tables)
    make_game(tournament, [entries[i:i + 4] for i in range(0, len(entries), 4)])
    with django_assert_max_num_queries(7):
        first = page(client, "/t/big/overlay/")
    with CaptureQueriesContext(connection) as queries:  # the page and its token from the cache
        assert page(client, "/t/big/overlay/?table=1&x=random") == first
        assert client.get("/t/big/overlay/version/").status_code == 200
    assert len(queries) == 0, [q["sql"] for q in queries]


def test_the_sheet_token_costs_one_query_per_few_seconds_whatever_the_readers(final, django_assert_num_queries):
    with django_assert_num_queries(1):
        token = overlay.sheet_token(final["t"].pk, 1)
    with django_assert_num_queries(0):
        assert all(overlay.sheet_token(final["t"].pk, 1) == token for _ in range(50))


def test_the_map_study_clock_shows_while_it_counts_then_the_page_is_cached_again(client, final,
                                                                                 django_capture_on_commit_callbacks):
    Tournament.objects.filter(pk=final["t"].pk).update(ruleset="cwc-2025")  # only 004 §1.1.7 has study time
    assert "data-study-clock" not in page(client)  # not started
    game = final["table"].game
    with django_capture_on_commit_callbacks(execute=True):
        change_clock(game.pk, "start", user=final["referee"])
    assert 'role="timer"' in page(client) and _("Map study time left") in page(client)
    with django_capture_on_commit_callbacks(execute=True):
        change_clock(game.pk, "end", user=final["referee"])
    html = page(client)
    assert "data-study-clock" not in html
    with CaptureQueriesContext(connection) as queries:
        assert page(client) == html  # no server time on it: cached
    assert len(queries) == 0


def test_namesakes_are_numbered_as_on_the_other_public_pages(client):
    tournament = make_tournament(slug="twins", status="running")
    entries = [tournament.entries.create(player=make_player(name)) for name in ["Ann Lee", "Bo Chen", "Ann Lee"]]
    make_game(tournament, [[entries[2], entries[1], entries[0]]])
    html = page(client, "/t/twins/overlay/")
    numbers = re.findall(r'<bdi>Ann Lee</bdi> <span class="overlay-namesake">\((\d)\)</span>', html)
    assert numbers == ["2", "1"] and "Bo Chen</bdi></span>" in html
