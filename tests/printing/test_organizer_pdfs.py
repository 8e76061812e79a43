"""The organizer's PDFs: table cards, record sheets with the QR code of each table's sheet, blank sheets, slips,
qualification list with the waiting list, certificates; nobody but the tournament's organizers gets them."""
import re
import subprocess
import tempfile
from pathlib import Path

import pytest
import zxingcpp
from django.test import Client
from django.urls import reverse
from PIL import Image

from championships.models import Player, Tournament
from printing import documents
from tests.factories import make_championship, make_entries, make_game, make_official, make_tournament, play
from tests.site import open_link

pytestmark = pytest.mark.django_db

NAMES = ["Zoe Adams", "Yann Brel", "Xavier Cole", "Wanda Diaz", "Vera Eng", "Uma Fox", "Tom Gray", "Sara Hill"]


def _named(entries, names):
    for entry, name in zip(entries, names):
        Player.objects.filter(pk=entry.player_id).update(name=name)


@pytest.fixture
def event():
    tournament = make_tournament(slug="print-organizer", games=1)
    entries = make_entries(tournament, 8)
    _named(entries, NAMES)
    game = make_game(tournament, [entries[:4], entries[4:]])
    organizer = make_official(tournament, "organizer")
    client = Client()
    client.force_login(organizer)
    return tournament, game, client, organizer


def test_table_cards_show_number_and_players_in_play_order(event, text_of):
    tournament, game, client, _ = event
    response = client.get(reverse("print-table-cards", args=[tournament.slug, 1]))
    assert response.status_code == 200
    pages = text_of(response.content, "-raw").split("\f")
    assert "Zoe Adams\nYann Brel\nXavier Cole\nWanda Diaz" in pages[0].replace("1. ", "").replace("2. ", "")\
        .replace("3. ", "").replace("4. ", "")
    assert "\n2\n" in pages[1] and "Vera Eng" in pages[1] and "Zoe Adams" not in pages[1]


def test_table_cards_and_sheets_number_namesakes_as_the_pages_do(event, text_of):
    tournament, game, client, _ = event
    Player.objects.filter(name="Vera Eng").update(name="Zoe Adams")  # table 2 seats a namesake of table 1's
    cards = text_of(client.get(reverse("print-table-cards", args=[tournament.slug, 1])).content, "-raw").split("\f")
    assert "Zoe Adams (1)" in cards[0] and "Zoe Adams (2)" in cards[1] and "Yann Brel (" not in cards[0]
    sheets = text_of(client.get(reverse("print-record-sheets", args=[tournament.slug, 1])).content, "-raw")
    assert "Zoe Adams (1)" in sheets and "Zoe Adams (2)" in sheets


def test_record_sheets_prefilled_and_each_qr_opens_its_tables_sheet(event, text_of, monkeypatch):
    tournament, game, client, _ = event
    encoded = []
    real = documents.qr_data_uri
    monkeypatch.setattr(documents, "qr_data_uri", lambda url: encoded.append(url) or real(url))
    response = client.get(reverse("print-record-sheets", args=[tournament.slug, 1]))
    assert response.status_code == 200
    tables = list(game.tables.order_by("number"))
    assert encoded == [f"https://catan.example/referee/{tournament.slug}/tables/{t.pk}/" for t in tables]
    assert open_link(Client(), encoded[0]).status_code == 302  # the referee's sheet (after signing in)
    pages = text_of(response.content).split("\f")
    assert "Game 1 · Table 1" in pages[0] and "Start time" in pages[0] and "Referee" in pages[0]
    assert all(name in pages[0] for name in NAMES[:4]) and "Vera Eng" in pages[1]
    assert pages[0].index("Zoe Adams") < pages[0].index("Yann Brel") < pages[0].index("Wanda Diaz")


def test_a_long_name_is_printed_whole_and_every_row_keeps_its_place(event, text_of):
    """A sheet's rows stand over its printed boxes (SHEET_ROW_MM apart): a name too long for its column is set
    smaller on more lines within its row, never pushing the rows below it down."""
    tournament, game, client, _ = event
    long_name = " ".join(["Maximilian Alexander", "Oberhauser-Wittelsbach"] * 4)  # 171 characters
    seat = game.tables.get(number=1).seats.get(position=2)
    Player.objects.filter(pk=seat.entry.player_id).update(name=long_name)
    pdf = client.get(reverse("print-record-sheets", args=[tournament.slug, 1])).content
    first_page = text_of(pdf, "-raw").split("\f")[0]
    assert " ".join(first_page.split()).count("Oberhauser-Wittelsbach") == 4
    boxes = subprocess.run(["pdftotext", "-bbox", "-f", "1", "-l", "1", "-", "-"], input=pdf, capture_output=True,
                           check=True).stdout.decode()
    words = re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)"[^>]*>([^<]*)</word>', boxes)
    margin = 14 / 25.4 * 72 + 2  # pt: the play order is the first thing on its line
    rows = {text: float(y) for x, y, text in words if float(x) < margin and text in {"1", "2", "3", "4"}}
    step = documents.SHEET_ROW_MM / 25.4 * 72
    assert [round(rows[n] - rows["1"] - k * step, 1) for k, n in enumerate("1234")] == [0.0] * 4


def test_the_printed_qr_codes_decode_to_each_tables_sheet(event):
    """Read back from the printed pages themselves (rasterised by poppler, decoded by zxing-cpp), as a phone would."""
    tournament, game, client, _ = event
    pdf = client.get(reverse("print-record-sheets", args=[tournament.slug, 1])).content
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(["pdftoppm", "-r", "150", "-png", "-", f"{folder}/page"], input=pdf, check=True)
        decoded = [[code.text for code in zxingcpp.read_barcodes(Image.open(page))]
                   for page in sorted(Path(folder).glob("page*.png"))]
    assert decoded == [[f"https://catan.example/referee/{tournament.slug}/tables/{t.pk}/"]
                       for t in game.tables.order_by("number")]


def test_blank_sheets_result_slips_and_qualification(event, text_of):
    tournament, game, client, _ = event
    blank = text_of(client.get(reverse("print-blank-sheets", args=[tournament.slug]) + "?count=3").content)
    assert blank.count("Walk-in table") == 3 and "Zoe Adams" not in blank
    slips = text_of(client.get(reverse("print-result-slips", args=[tournament.slug, 1])).content)
    assert slips.count("Cut along the dashed lines") == 1  # two tables: one page of four slips
    assert "Game 1 · Table 2" in slips and "Sara Hill" in slips
    referee = make_official(tournament, "referee")
    first, second = game.tables.order_by("number")
    play(first, [10, 8, 6, 4], referee)
    play(second, [7, 10, 5, 3], referee)
    make_tournament(slug="print-finals", kind="finals", championship=tournament.championship)
    Tournament.objects.filter(pk=tournament.pk).update(advance_count=2)
    text = text_of(client.get(reverse("print-qualification", args=[tournament.slug])).content)
    qualified, waiting = text.split("Waiting list")
    assert "Uma Fox" in qualified and "Zoe Adams" in qualified and "Yann Brel" not in qualified
    # by rank: 8, 7, 6 and 5 VP; the fifth non-qualified player (Wanda, 4 VP) is not listed
    assert sorted((n for n in NAMES if n in waiting), key=waiting.index) == [
        "Yann Brel", "Vera Eng", "Xavier Cole", "Tom Gray"]


def test_certificates_once_the_podium_is_known(event, text_of):
    tournament, game, client, _ = event
    url = reverse("print-certificates", args=[tournament.slug])
    assert client.get(url).status_code == 404
    referee = make_official(tournament, "referee")
    first, second = game.tables.order_by("number")
    play(first, [10, 8, 6, 4], referee)
    play(second, [7, 10, 5, 3], referee)
    pages = text_of(client.get(url).content).split("\f")
    assert "Winner" in pages[0] and "Uma Fox" in pages[0]
    assert "Champion" not in pages[0]  # a qualifier's top places go on to the finals: nobody is champion yet
    assert "Zoe Adams" in pages[1] and "Second place" in pages[1]
    Tournament.objects.filter(pk=tournament.pk).update(kind=Tournament.Kind.FINALS)
    assert "Champion" in text_of(client.get(url).content).split("\f")[0]


def test_arabic_record_sheet(text_of):
    tournament = make_tournament(slug="print-ar-sheet", games=1, name="تصفيات الرياض")
    entries = make_entries(tournament, 4)
    _named(entries, ["أحمد سالم", "فاطمة علي", "خالد يوسف", "مريم حسن"])
    make_game(tournament, [entries])
    client = Client()
    client.force_login(make_official(tournament, "organizer"))
    text = text_of(client.get(f"/ar{reverse('print-record-sheets', args=[tournament.slug, 1])}").content)
    for name in ("أحمد سالم", "مريم حسن", "تصفيات الرياض"):
        assert name in text


@pytest.mark.parametrize("name", ["print-table-cards", "print-record-sheets", "print-result-slips"])
def test_only_the_tournaments_organizers_may_print(event, name):
    tournament, _game, _client, _ = event
    url = reverse(name, args=[tournament.slug, 1])
    assert Client().get(url).status_code == 302  # to the sign-in page
    for outsider in (make_official(tournament, "referee"),
                     make_official(make_tournament(championship=make_championship()), "organizer")):
        client = Client()
        client.force_login(outsider)
        assert client.get(url).status_code == 403


def test_letter_paper_by_country_or_parameter():
    assert printing_paper("US", None) == "letter" and printing_paper("AE", None) == "a4"
    assert printing_paper("US", "a4") == "a4" and printing_paper("AE", "letter") == "letter"
    assert printing_paper("AE", "tabloid") == "a4"


def printing_paper(country, requested):
    from core.pdf import paper_for
    return paper_for(requested, country)
