"""Every text response (HTML, JSON, CSV) is compressed when the client asks, and only then (issue 23 item 3);
what the page cache does not store goes out as Django's GZipMiddleware sends it (random padding against BREACH)."""
import csv
import gzip
import io

import brotli
import pytest

from core.compression import accepted
from tests.factories import make_entries, make_game, make_official, make_tournament, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(django_capture_on_commit_callbacks):
    tournament = make_tournament(slug="cup", name="Cup", status="running")
    entries = make_entries(tournament, 40)
    referee = make_official(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(tournament, [entries[i:i + 4] for i in range(0, 40, 4)])
        for table in game.tables.all():
            play(table, [10, 8, 6, 4], referee)
    return tournament, referee


@pytest.mark.parametrize("path, kind", [("/api/tournaments/cup/standings/", "application/json"),
                                        ("/t/cup/standings.csv", "text/csv"),
                                        ("/api/tournaments/cup/games/1/seating/", "application/json")])
def test_json_and_csv_are_gzipped_when_asked_and_plain_otherwise(client, cup, path, kind):
    plain = client.get(path)
    assert plain.status_code == 200 and plain.headers["Content-Type"].startswith(kind)
    assert "Content-Encoding" not in plain.headers and "Accept-Encoding" in plain.headers["Vary"]
    packed = client.get(path, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert packed.headers["Content-Encoding"] == "gzip" and len(packed.content) < len(plain.content)
    assert gzip.decompress(packed.content) == plain.content


def test_the_standings_csv_still_reads_as_a_spreadsheet_after_decompression(client, cup):
    packed = client.get("/t/cup/standings.csv", HTTP_ACCEPT_ENCODING="gzip")
    rows = list(csv.reader(io.StringIO(gzip.decompress(packed.content).decode("utf-8-sig"))))
    assert rows[0][:3] == ["rank", "player", "country"] and len(rows) == 41


def test_staff_pages_are_compressed_as_gzip_with_random_padding(client, cup):
    tournament, referee = cup
    client.force_login(referee)
    page = client.get("/referee/cup/", HTTP_ACCEPT_ENCODING="gzip, br")
    assert page.status_code == 200 and page.headers["Content-Encoding"] == "gzip"
    assert page.content[3] & gzip.FNAME and b"<html" in gzip.decompress(page.content)


def test_pdfs_and_tiny_bodies_are_left_alone(client, cup):
    pdf = client.get("/t/cup/standings.pdf", HTTP_ACCEPT_ENCODING="gzip, br")
    assert pdf.status_code == 200 and "Content-Encoding" not in pdf.headers and pdf.content.startswith(b"%PDF-")
    health = client.get("/healthz", HTTP_ACCEPT_ENCODING="gzip, br")
    assert "Content-Encoding" not in health.headers and health.json()["status"] == "ok"


def test_staff_never_get_a_cached_page_and_what_they_get_is_padded_gzip(client, cup):
    tournament, referee = cup
    anonymous = client.get("/t/cup/standings/", HTTP_ACCEPT_ENCODING="gzip, br")
    client.force_login(referee)
    staff = [client.get("/t/cup/standings/", HTTP_ACCEPT_ENCODING="gzip, br") for _ in range(2)]
    for response in staff:
        assert response.headers["Content-Encoding"] == "gzip"  # never brotli: it holds a CSRF token
        assert response.content[3] & gzip.FNAME  # random bytes in the header's file name: its size tells nothing
        assert b"csrfmiddlewaretoken" in gzip.decompress(response.content)
    assert anonymous.headers["Content-Encoding"] == "br"
    assert b"csrfmiddlewaretoken" not in brotli.decompress(anonymous.content)


@pytest.mark.parametrize("header, among, expected", [
    ("gzip, deflate, br", None, "br"), ("gzip", None, "gzip"), ("br;q=0, gzip", None, "gzip"),
    ("gzip;q=0", ("gzip",), None), ("*", None, "br"), ("*;q=0", None, None), ("", None, None),
    ("identity", None, None), ("BR", None, "br"), ("gzip; q=0.5", ("gzip",), "gzip"), ("gzip;q=x", None, None),
])
def test_accept_encoding_is_read_with_its_weights(rf, header, among, expected):
    assert accepted(rf.get("/", HTTP_ACCEPT_ENCODING=header), among) == expected
