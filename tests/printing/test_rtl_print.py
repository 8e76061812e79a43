"""Right-to-left PDFs: the footer (the event line repeated on every page as plain text) keeps the tournament's
name, date and city each whole and in reading order, whatever script the name is in."""
import html
import re
import subprocess

import pytest
from django.test import Client
from django.utils import translation
from django.utils.formats import date_format

from tests.factories import make_entries, make_game, make_official, make_tournament, play

pytestmark = pytest.mark.django_db

WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)"[^>]*>(.*?)</word>')


def footer_words(pdf: bytes) -> list[str]:
    """The words of the first page's last line, left to right as printed (poppler gives right-to-left words with
    their letters in visual order)."""
    boxes = subprocess.run(["pdftotext", "-bbox", "-f", "1", "-l", "1", "-", "-"], input=pdf, capture_output=True,
                           check=True).stdout.decode()
    words = [(float(y), float(x), html.unescape(text)) for x, y, text in WORD.findall(boxes)]
    bottom = max(y for y, _x, _text in words)
    return [text for y, _x, text in sorted(words, key=lambda word: word[1]) if y > bottom - 5]


def _at(words: list[str], phrase: str) -> list[int]:
    """Where each word of `phrase` was printed in the line (a right-to-left word may come back reversed)."""
    return [next(n for n, word in enumerate(words) if token in (word, word[::-1])) for token in phrase.split()]


@pytest.mark.parametrize("language", ["en", "ar", "he", "fa"])
def test_footer_keeps_name_date_and_city_whole_and_in_reading_order(language):
    tournament = make_tournament(slug="footer-cup", name="Dubai Open", city="Sharjah", games=1)
    game = make_game(tournament, [make_entries(tournament, 4)])
    play(game.tables.get(), [10, 8, 6, 4], make_official(tournament))
    prefix = "" if language == "en" else f"/{language}"
    words = footer_words(Client().get(f"{prefix}/t/footer-cup/standings.pdf").content)
    with translation.override(language):
        day = date_format(tournament.date, "DATE_FORMAT")
    parts = [_at(words, "Dubai Open"), _at(words, day), _at(words, "Sharjah")]
    for part in parts:
        assert sorted(part) == list(range(min(part), min(part) + len(part))), f"split: {words}"
    starts = [min(part) for part in parts]
    assert starts == sorted(starts, reverse=translation.get_language_info(language)["bidi"]), words
