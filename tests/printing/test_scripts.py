"""A name in any script prints: every glyph of the PDFs is drawn by an embedded font, none is an empty box."""
import pytest
from django.test import Client

from championships.models import Player
from tests.factories import make_entries, make_game, make_official, make_tournament, play
from tests.glyphs import NAMES_BY_SCRIPT, pdf_missing_glyphs

pytestmark = pytest.mark.django_db

NAMES = list(NAMES_BY_SCRIPT.values())


@pytest.fixture
def scripts():
    """Sixteen players, one per script, in a Korean-named qualifier whose top 16 go on (bold in the standings)."""
    tournament = make_tournament(slug="scripts-cup", name="서울 오픈 Ἀθῆναι", games=1, advance_count=16)
    make_tournament(kind="finals", championship=tournament.championship)
    entries = make_entries(tournament, len(NAMES))
    for entry, name in zip(entries, NAMES):
        Player.objects.filter(pk=entry.player_id).update(name=name)
    game = make_game(tournament, [entries[n:n + 4] for n in range(0, len(entries), 4)])
    referee = make_official(tournament)
    for table in game.tables.all():
        play(table, [10, 8, 6, 4], referee)
    organizer = make_official(tournament, "organizer")
    client = Client()
    client.force_login(organizer)
    return client


NEW_LANGUAGES = ["de", "fr", "es", "it", "pt-br", "nl", "pl", "tr", "el", "ja", "zh-hans", "ko"]


@pytest.mark.parametrize(("language", "path"), [
    *((language, path) for language in ("en", "ar") for path in ("standings.pdf", "games/1/seating.pdf")),
    *((language, "standings.pdf" if n % 2 else "games/1/seating.pdf") for n, language in enumerate(NEW_LANGUAGES)),
])
def test_every_script_prints_without_a_missing_glyph(scripts, text_of, language, path):
    """In every language the site speaks: its own labels (Greek, CJK) and every script of a name."""
    prefix = "" if language == "en" else f"/{language}"
    pdf = scripts.get(f"{prefix}/t/scripts-cup/{path}").content
    # pdftotext's -layout puts right-to-left runs in reading order, but on a right-to-left page it may move a
    # zero-width mark of a left-to-right name (Thai "ี") out of its word; -raw keeps a left-to-right run as drawn
    text, drawn = text_of(pdf), text_of(pdf, "-raw")
    assert [name for name in NAMES if name not in text and name not in drawn] == [], text
    assert pdf_missing_glyphs(pdf) == set()


def test_table_cards_print_every_script_large(scripts, text_of):
    pdf = scripts.get("/organize/scripts-cup/print/games/1/table-cards.pdf").content
    assert pdf_missing_glyphs(pdf) == set()
