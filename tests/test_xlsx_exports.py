"""An Excel workbook beside every CSV (issue 27, item 5): the same keys and rows, right to left in Arabic, Hebrew and
Persian, no cell a formula, the same permissions as the CSV and no more queries; the public ones kept per version."""
import csv
import io
from datetime import date

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from championships.models import StaffRole, Tournament
from championships.services import assign_staff
from core.csv_export import safe_cell
from core.ratelimit import Busy, ConcurrencyLimit
from core.table_export import MAX_TEXT, XLSX_CONTENT_TYPE, sheet_title, xlsx_bytes
from ratings import services as ratings_services
from ratings.seasons import create_season
from results.publishing import publish_game
from scheduling import services
from scheduling.models import Game
from tests.factories import (
    make_admin,
    make_championship,
    make_entries,
    make_official,
    make_player,
    make_tournament,
    make_user,
    play,
)
from tests.ratings.helpers import running_tournament

pytestmark = pytest.mark.django_db

HOSTILE = '=HYPERLINK("http://x","1")'


def sheet(response):
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == XLSX_CONTENT_TYPE
    disposition = response["Content-Disposition"]
    assert disposition.startswith("attachment;") and disposition.endswith('.xlsx"')
    return load_workbook(io.BytesIO(response.content)).active


def csv_rows(response) -> list[list[str]]:
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


def assert_same_table(csv_response, xlsx_response):
    """Same header keys and rows: a number cell holds the CSV's number, any other cell the CSV's text (before
    the CSV's apostrophe); no cell is a formula. Returns the sheet."""
    rows, book = csv_rows(csv_response), sheet(xlsx_response)
    got = list(book.iter_rows())
    assert [c.value for c in got[0]][:len(rows[0])] == rows[0]
    assert len(got) == len(rows)
    for expected, cells in zip(rows, got):
        for text, cell in zip(expected, cells):
            assert cell.data_type != "f", cell.value
            if cell.data_type == "n" and cell.value is not None:
                assert float(text.lstrip("'")) == cell.value, (text, cell.value)
            else:
                assert safe_cell(cell.value) == text, (text, cell.value)
    return book


def _queries(client, url) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    return len(queries), response


@pytest.fixture
def cup():
    tournament = make_tournament(slug="xlsx-cup", games=2)
    make_entries(tournament, 11)
    tournament.entries.create(player=make_player(HOSTILE, country="FR", email="evil@example.org"))
    organizer = make_official(tournament, "organizer")
    make_official(tournament, "referee")
    services.generate_seating(tournament.stages.get().pk, user=make_admin(), seed=3)
    game = Game.objects.get(tournament=tournament, number=1)
    publish_game(game.pk, user=organizer)
    play(game.tables.get(number=1), [10, 7, 7, 4], organizer)
    return {"tournament": tournament, "organizer": organizer, "stage": tournament.stages.get()}


def _exports(cup) -> list[tuple[str, list]]:
    slug = cup["tournament"].slug
    return [("organize-players", [slug]), ("organize-relationships", [slug]), ("organize-entries", [slug]),
            ("organize-checkin", [slug]), ("organize-registrations", [slug]), ("activity-log", [slug]),
            ("organize-results", [slug]), ("stage-seating", [slug, cup["stage"].pk]), ("public-standings", [slug])]


def test_every_organizer_export_as_xlsx_has_the_csvs_keys_and_rows_and_no_formula(client, cup):
    client.force_login(cup["organizer"])
    hostile_seen = 0
    for name, args in _exports(cup):
        csv_url, xlsx_url = reverse(f"{name}-csv", args=args), reverse(f"{name}-xlsx", args=args)
        assert xlsx_url == csv_url.removesuffix(".csv") + ".xlsx"
        book = assert_same_table(client.get(csv_url), client.get(xlsx_url))
        assert book.sheet_view.rightToLeft in (None, False) and book.freeze_panes == "A2"
        assert all(cell.font.b for cell in next(book.iter_rows()))
        for row in book.iter_rows(min_row=2):
            for cell in row:
                if cell.value == HOSTILE:
                    assert cell.data_type == "s" and cell.quotePrefix
                    hostile_seen += 1
    assert hostile_seen >= 6  # players, entries, check-in, seating (twice), results, standings


def test_numbers_are_number_cells(client, cup):
    client.force_login(cup["organizer"])
    results = sheet(client.get(reverse("organize-results-xlsx", args=[cup["tournament"].slug])))
    header = [c.value for c in next(results.iter_rows())]
    first = [dict(zip(header, (c.value for c in row))) for row in results.iter_rows(min_row=2)][0]
    assert isinstance(first["game"], int) and isinstance(first["vp"], int) and first["winner"] in ("true", "false")


def test_a_query_string_picks_the_same_rows(client, cup):
    client.force_login(cup["organizer"])
    slug, stage = cup["tournament"].slug, cup["stage"].pk
    assert_same_table(client.get(reverse("stage-seating-csv", args=[slug, stage]), {"game": 2}),
                      client.get(reverse("stage-seating-xlsx", args=[slug, stage]), {"game": 2}))
    assert_same_table(client.get(reverse("organize-checkin-csv", args=[slug]), {"q": "HYPERLINK"}),
                      client.get(reverse("organize-checkin-xlsx", args=[slug]), {"q": "HYPERLINK"}))


@pytest.mark.parametrize("prefix, rtl", [("", False), ("/ar", True), ("/he", True), ("/fa", True)])
def test_the_sheet_reads_right_to_left_in_arabic_hebrew_and_persian(client, cup, prefix, rtl):
    client.force_login(cup["organizer"])
    slug = cup["tournament"].slug  # the English addresses, reversed before a request makes another language active
    urls = [reverse(name, args=[slug]) for name in ("organize-checkin-xlsx", "organize-entries-xlsx",
                                                    "public-standings-xlsx")]
    for url in urls[:2]:
        assert bool(sheet(client.get(prefix + url)).sheet_view.rightToLeft) is rtl
    standings = sheet(Client().get(prefix + urls[2]))
    assert bool(standings.sheet_view.rightToLeft) is rtl
    assert next(standings.iter_rows(values_only=True))[:3] == ("rank", "player", "country")  # keys stay English


def test_the_same_people_may_download_the_workbook_as_the_csv(client, cup):
    elsewhere = make_official(make_tournament(slug="elsewhere"), "organizer")
    referee = make_official(cup["tournament"], "referee")
    for user in (elsewhere, referee, None):
        visitor = Client()
        if user is not None:
            visitor.force_login(user)
        for name, args in _exports(cup):
            got_csv = visitor.get(reverse(f"{name}-csv", args=args)).status_code
            got_xlsx = visitor.get(reverse(f"{name}-xlsx", args=args)).status_code
            assert got_xlsx == got_csv, (name, user, got_csv, got_xlsx)
            if name != "public-standings":
                assert got_xlsx in (302, 403), (name, user, got_xlsx)


def test_the_workbook_costs_no_more_queries_than_the_csv(client, cup):
    client.force_login(cup["organizer"])
    for name, args in _exports(cup):
        csv_count, _ = _queries(client, reverse(f"{name}-csv", args=args))
        xlsx_count, response = _queries(client, reverse(f"{name}-xlsx", args=args))
        assert response.status_code == 200
        assert xlsx_count <= csv_count, (name, csv_count, xlsx_count)


def test_the_public_standings_workbook_is_written_once_per_version(cup, django_capture_on_commit_callbacks):
    reader = Client()
    url = reverse("public-standings-xlsx", args=[cup["tournament"].slug])
    first_count, first = _queries(reader, url)
    again_count, again = _queries(reader, url)
    assert first.content == again.content and again_count < first_count
    before = list(sheet(first).values)
    assert HOSTILE in {row[1] for row in before}
    game = Game.objects.get(tournament=cup["tournament"], number=1)
    with django_capture_on_commit_callbacks(execute=True):  # a new results version (pages ready): a new workbook
        play(game.tables.get(number=2), [10, 8, 6, 4], cup["organizer"])
    after = list(sheet(reader.get(url)).values)
    assert len(after) == len(before) and after != before


def test_a_public_workbook_past_the_writing_slots_answers_429(client, cup, monkeypatch):
    def busy(_request):
        raise Busy(ConcurrencyLimit("xlsx-test", limit=1, hold=10, retry_after=5), 5)

    monkeypatch.setattr("core.table_export.render_slot", busy)
    response = client.get(reverse("public-standings-xlsx", args=[cup["tournament"].slug]))
    assert response.status_code == 429 and response["Retry-After"] == "5"
    assert client.get(reverse("public-standings-csv", args=[cup["tournament"].slug])).status_code == 200


@pytest.fixture
def rated():
    players = [make_player(name) for name in ("Ann", HOSTILE, "Cy", "Dee")]
    championship = make_championship(slug="xlsx-tour")
    tournament = running_tournament(players, day=date(2022, 6, 11), championship=championship)
    for table in tournament.games.get(number=1).tables.all():
        play(table, [10, 8, 6, 4], make_admin())
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    ratings_services.recompute_all()
    organizer = make_user("xlsx-tour-organizer")
    assign_staff(organizer, StaffRole.Role.ORGANIZER, championship=championship, user=make_admin())
    season = create_season(user=organizer, name="Tour", championship_ids=[championship.pk],
                           points={"qualifier": [10, 6, 3]}, tiebreaks=[])
    return {"players": players, "organizer": organizer, "season": season}


def test_ratings_and_season_workbooks_match_their_csvs(client, rated):
    ratings = assert_same_table(client.get(reverse("ratings-csv")), client.get(reverse("ratings-xlsx")))
    header = [c.value for c in next(ratings.iter_rows())]
    rows = [dict(zip(header, row)) for row in ratings.iter_rows(min_row=2, values_only=True)]
    assert {r["player"] for r in rows} == {"Ann", HOSTILE, "Cy", "Dee"}
    assert all(isinstance(r["ordinal"], float) and isinstance(r["games"], int) for r in rows)
    player = rated["players"][0].pk
    assert_same_table(client.get(reverse("rating-player-csv", args=[player])),
                      client.get(reverse("rating-player-xlsx", args=[player])))
    season = rated["season"].pk
    assert bool(sheet(client.get("/ar" + reverse("ratings-xlsx"))).sheet_view.rightToLeft)
    translation.activate("en")
    assert client.get(reverse("organize-season-xlsx", args=[season])).status_code == 302
    client.force_login(make_user("not-theirs"))
    assert client.get(reverse("organize-season-xlsx", args=[season])).status_code == 403
    client.force_login(rated["organizer"])
    assert_same_table(client.get(reverse("organize-season-csv", args=[season])),
                      client.get(reverse("organize-season-xlsx", args=[season])))


def test_cells_numbers_titles_and_text_a_spreadsheet_would_run():
    hostile = ["=1+1", "+33 6 12", "@SUM(A1)", "\tx", "\rx", "-x", HOSTILE]
    data = xlsx_bytes("a[b]:c*?/\\d'" * 4, ["name", "n"],
                      [[text, 1] for text in hostile] + [["12.500000", "-3.25"], ["007", "1e5"],
                                                         ["bell\x07 ok", "x" * (MAX_TEXT + 10)], [True, None]],
                      rtl=True)
    book = load_workbook(io.BytesIO(data))
    sheet_ = book.active
    assert len(sheet_.title) <= 31 and not set(sheet_.title) & set("[]:*?/\\") and sheet_.sheet_view.rightToLeft
    cells = list(sheet_.iter_rows(min_row=2))
    for text, (cell, _n) in zip(hostile, cells):  # written through lxml, a carriage return reads back as written
        assert (cell.value, cell.data_type, cell.quotePrefix) == (text, "s", True)
    numbers, codes, odd, flags = cells[len(hostile):]
    assert [c.value for c in numbers] == [12.5, -3.25] and {c.data_type for c in numbers} == {"n"}
    assert [c.value for c in codes] == ["007", "1e5"] and {c.data_type for c in codes} == {"s"}
    assert odd[0].value == "bell ok" and len(odd[1].value) == MAX_TEXT
    assert flags[0].value == "True" and flags[1].value is None
    assert sheet_title("standings") == "standings" and sheet_title("") == "Sheet"
