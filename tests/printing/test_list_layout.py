"""Issue 35 item 5: the long lists' columns as the PDF draws them. Read back from the rendered page (poppler's word
boxes), every number column's values end at one edge, and each column's label ends there too: the labels are
placed by their shaped widths (HarfBuzz, core/print_columns.py), Arabic joined as the PDF sets it."""
import re
import subprocess
from xml.etree import ElementTree

import pytest
from django.test import Client

from tests.printing.test_public_pdfs import played  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db

NUMBER = re.compile(r"^[\d.,%=]+$")
JOIN_PT = 4.0
"""Words closer than this (a space, 2–3 pt at the list's size) are one value or one label."""
SAME_LINE_PT = 3.0


def words(pdf: bytes) -> list[tuple[float, float, float, str]]:
    """The first page's words: (x min, x max, y of their middle, text)."""
    xhtml = subprocess.run(["pdftotext", "-bbox", "-f", "1", "-l", "1", "-", "-"], input=pdf, capture_output=True,
                           check=True).stdout.decode()
    return [(float(word.get("xMin")), float(word.get("xMax")), (float(word.get("yMin")) + float(word.get("yMax"))) / 2,
             word.text or "") for word in ElementTree.fromstring(xhtml).iter("{http://www.w3.org/1999/xhtml}word")]


def lines(found) -> dict[float, list[tuple[float, float, str]]]:
    """Words by line (a line's words have their middles within SAME_LINE_PT of its first: a character from another
    font sits higher or lower), each line's words joined into phrases, left to right."""
    by_line: dict[float, list] = {}
    for x0, x1, y, text in sorted(found, key=lambda word: word[2]):
        line = next((top for top in by_line if abs(y - top) < SAME_LINE_PT), y)
        by_line.setdefault(line, []).append((x0, x1, text))
    joined = {}
    for y, row in by_line.items():
        phrases: list[list] = []
        for x0, x1, text in sorted(row):
            if phrases and x0 - phrases[-1][1] < JOIN_PT:
                phrases[-1][1], phrases[-1][2] = x1, f"{phrases[-1][2]} {text}"
            else:
                phrases.append([x0, x1, text])
        joined[y] = [tuple(p) for p in phrases]
    return joined


@pytest.mark.parametrize("language", ["en", "ar", "he"])
def test_every_label_ends_where_its_column_of_numbers_ends(played, language):  # noqa: F811
    tournament, _game = played
    prefix = "" if language == "en" else f"/{language}"
    response = Client().get(f"{prefix}/t/{tournament.slug}/standings.pdf")
    assert response.status_code == 200
    rows = lines(words(response.content))
    rtl = language != "en"
    data = sorted(y for y, phrases in rows.items() if sum(bool(NUMBER.match(p[2])) for p in phrases) >= 4)
    assert len(data) == 8, rows  # every player's row
    edge = 0 if rtl else 1  # a column ends at its left edge on a right-to-left page

    def ends(y):
        return sorted(p[edge] for p in rows[y] if NUMBER.match(p[2]))
    columns = ends(data[0])
    for y in data[1:]:  # the values line up
        assert ends(y) == pytest.approx(columns, abs=0.3), (y, rows[y])
    height = data[1] - data[0]
    header = [p for y, phrases in rows.items() if data[0] - 3.2 * height < y < data[0] for p in phrases]
    for end in columns:
        nearest = min(header, key=lambda p: abs(p[edge] - end))
        assert abs(nearest[edge] - end) < 1.5, (language, end, nearest, header)
