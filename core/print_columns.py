"""Long lists in PDFs (standings, a game's seating): one line of plain text per row, its columns lined up.

WeasyPrint spends about half a millisecond on each element and on each line of text it lays out, so a table of
1,000 rows × 6 cells took 5 s. Here a row is one line of a block of lines (`white-space: pre-wrap`): its number
columns first, each value padded with spaces at its start to its column's width, then the name, which may be as
long as it likes (a name too long for its column goes on further lines, indented: `wrapped`). That lines the
columns up because the shipped Noto fonts give every digit, "=" and the figure space (U+2007) one width, and the
other characters of a number (".", ",", "%", "–", no-break space) and the padding spaces the same width in every
font that has them: `em` measures them from the fonts' advance widths. A name is isolated in its own direction
(FSI … PDI); on a right-to-left page each value is isolated too (RLI … PDI), so the columns mirror and a number
keeps its order. The header is one line too, each label placed with spaces by its shaped width (`measured`:
HarfBuzz, with which Pango sets the PDF's text), and the pages are built here (`paginate`): groups of a few rows,
as many to a page (or to each of its columns) as its height holds, so WeasyPrint never lays out what does not
fit, only to lay it out again.

No table: WeasyPrint lays a table out a third slower than the same lines in blocks. No tab stops either: they
would put the name second, but WeasyPrint 70 draws a tab 2.4 % wider than Pango measured it, which moves whatever
follows by 2.4 % of the name before it.
"""
import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import uharfbuzz as hb
from django.conf import settings

FONTS = Path(settings.BASE_DIR) / "static" / "fonts"
FAMILIES = ("NotoSans", "NotoSansArabic", "NotoSansHebrew")
"""The shipped fonts, in the order their glyphs are looked up (numbers take the same width in each)."""
FIRST_FAMILY = {"ar": "NotoSansArabic", "fa": "NotoSansArabic"}
"""The font a list's text is set in first, by language (static/print/print.css, `html[lang]`, `.lines`); others,
Hebrew too, NotoSans."""
WIDE = 1.0
"""Width (em) counted for a character none of the shipped fonts has (a CJK ideograph is one em)."""
PT_MM = 25.4 / 72
LIST_MM = 180.0
"""The width a list may take: within the text width of A4 and of US Letter (`core.pdf.text_area_mm`)."""
GAP = "\u2003"
"""An em space between columns."""
SPACES = {"\u2003": 1.0, "\u2007": 0.572, "\u2002": 0.5, "\u2004": 0.333, "\u2008": 0.268, "\u2005": 0.25,
          "\u2006": 0.167, "\u200a": 0.1}
"""Spaces the padding is made of, widest first (em, as in Noto Sans; U+2008 is as wide as "." in the regular
weight, a little narrower than the bold's)."""
RLI, FSI, PDI = "\u2067", "\u2068", "\u2069"
MIXED_FONTS_EM = 0.13
"""How much taller (em) a line gets when some of its characters come from another font than the page's first:
each font's text sits on the baseline with its own ascent and descent, so the line box grows by half the
difference (measured at most 0.12 em: Chinese in an Arabic page)."""
LABEL_EM = 6.0
"""A column label wider than this (em) goes on two lines, over a column as wide as its longest word."""


@cache
def _font(family: str, bold: bool) -> dict[str, float]:
    """The characters of one shipped font and their advances in em."""
    from fontTools.ttLib import TTFont  # WeasyPrint's own dependency, loaded when printing

    font = TTFont(FONTS / f"{family}-{'Bold' if bold else 'Regular'}.ttf", lazy=True)
    metrics, units = font["hmtx"].metrics, font["head"].unitsPerEm
    return {chr(code): metrics[glyph][0] / units for code, glyph in font.getBestCmap().items()}


@cache
def _advances(bold: bool) -> dict[str, float]:
    """Each character's advance in em, from the first of the shipped fonts that has it."""
    advances: dict[str, float] = {}
    for family in reversed(FAMILIES):
        advances.update(_font(family, bold))
    return advances


def em(text: str, *, bold: bool = False) -> float:
    """The advance width of `text` in em, from the first shipped font that has each character (no kerning, no
    shaping: exact for numbers and Latin or Hebrew letters, wider than Pango's for joined Arabic)."""
    advances = _advances(bold)
    return sum(advances.get(char, WIDE) for char in text)


def measured(texts: list[str], *, language: str, bold: bool = False) -> list[float]:
    """The widths of `texts` in em as the PDF sets them in the stylesheet's fonts for `language`: shaped by
    HarfBuzz, as Pango shapes them for WeasyPrint (an Arabic word is narrower than the separate forms of its
    letters that `em` adds up). For the few labels placed along a line."""
    return [_shaped(text, language[:2], bold) for text in texts]


@cache
def _shaper(family: str, bold: bool) -> tuple[hb.Font, int]:
    face = hb.Face(hb.Blob.from_file_path(str(FONTS / f"{family}-{'Bold' if bold else 'Regular'}.ttf")))
    return hb.Font(face), face.upem


def _runs(text: str, language: str, bold: bool) -> list[tuple[str | None, str]]:
    """`text` in runs of one font each, as the stylesheet's font list falls back: each character from the first
    shipped font that has it (the page's language's first), spaces, digits and punctuation staying in the run
    they are in when its font has them; None for characters no shipped font has."""
    first = FIRST_FAMILY.get(language, FAMILIES[0])
    order = [first, *(family for family in FAMILIES if family != first)]
    runs: list[tuple[str | None, str]] = []
    for char in text:
        having = [family for family in order if char in _font(family, bold)]
        neutral = unicodedata.category(char)[0] in "ZPN"
        if runs and runs[-1][0] in having and (neutral or having[0] == runs[-1][0]):
            runs[-1] = (runs[-1][0], runs[-1][1] + char)
        else:
            runs.append((having[0] if having else None, char))
    return runs


@cache
def _shaped(text: str, language: str, bold: bool) -> float:
    width = 0.0
    for family, run in _runs(text, language, bold):
        if family is None:
            width += WIDE * len(run)
            continue
        font, units = _shaper(family, bold)
        buffer = hb.Buffer()
        buffer.add_str(run)
        buffer.guess_segment_properties()
        buffer.language = language
        hb.shape(font, buffer, {})
        width += sum(position.x_advance for position in buffer.glyph_positions) / units
    return width


def spaces(width: float) -> str:
    """Spaces `width` em wide all together (to within 0.1 em; none for a width below that)."""
    chosen = []
    for space, size in SPACES.items():
        count = max(int((width + 0.02) // size), 0)
        chosen.append(space * count)
        width -= count * size
    return "".join(chosen)


def pad(text: str, width: float, *, bold: bool = False) -> str:
    """`text` with spaces before it (on its start side), `width` em wide all together."""
    return spaces(width - em(text, bold=bold)) + text


def isolate(text: str, rtl: bool) -> str:
    """A value kept together on a right-to-left page, so the columns mirror and it keeps its order (digits keep
    theirs on a left-to-right page, and WeasyPrint has fewer glyphs to draw)."""
    return f"{RLI}{text}{PDI}" if rtl else text


def direction(text: str) -> str:
    """"rtl" or "ltr": the direction of `text`'s first strong character (what `dir="auto"` finds, which WeasyPrint
    does not), for a name set in a block of its own."""
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind in ("R", "AL"):
            return "rtl"
        if kind == "L":
            return "ltr"
    return "ltr"


def name(text: str) -> str:
    """A name isolated in its own direction (first strong character), as `<bdi>` would."""
    return f"{FSI}{text}{PDI}"


def wrapped(text: str, room: float, indent: float, *, after: str = "", bold: bool = False) -> str:
    """A name (then `after`, in the page's direction) that runs past `room` em broken between words (or after a
    hyphen) onto further lines, each indented `indent` em with spaces, so it stays in its column (each line isolated
    on its own). Measured with a margin for shaping and fallback fonts; a word longer than the room stays whole."""
    if em(text + after, bold=bold) * 1.15 <= room:
        return name(text) + after
    lines, line = [], ""
    for word in re.findall(r"[^\s-]+-?|-", text):  # words, and the parts of a hyphenated one
        joined = f"{line}{'' if line.endswith('-') or not line else ' '}{word}"
        if line and em(joined, bold=bold) * 1.15 > room:
            lines.append(line)
            joined = word
        line = joined
    lines.append(line)
    parts = [name(words) for words in lines]
    if after and em(lines[-1] + after, bold=bold) * 1.15 > room:
        parts.append(after.lstrip())
    else:
        parts[-1] += after
    return ("\n" + spaces(indent)).join(parts)


def mm(width: float, font_pt: float) -> float:
    """An em width in millimetres at `font_pt`."""
    return width * font_pt * PT_MM


def em_of(width_mm: float, font_pt: float) -> float:
    return width_mm / (font_pt * PT_MM)


def _label_width(label: str, most: float, language: str) -> float:
    """The room a column's label asks for: all of it up to `most` em, else its longest word (it then wraps)."""
    words = label.split(" ")
    sizes = measured(words + [label], language=language, bold=True)
    return max(max(sizes[:-1]), min(sizes[-1], most)) + 0.3


@dataclass(frozen=True)
class Numbers:
    """Number columns set as one run of text per row, each followed by a gap."""

    widths: list[float]
    """Each column's width in em, the gap after it included."""
    rows: list[str]


def numbers(columns: list[list[str]], labels: list[str], *, language: str, rtl: bool, bold: list[bool],
            label_em: float = LABEL_EM) -> Numbers:
    """`columns` (each a list of values, one per row, as shown) lined up: each value padded to its column's width,
    which fits the widest value and the column's label in bold (a label wider than `label_em` on two lines, so
    the names keep their room)."""
    widths = [max([_label_width(label, label_em, language)] + [em(value, bold=b) for value, b in zip(column, bold)])
              for column, label in zip(columns, labels, strict=True)]
    rows = ["".join(isolate(pad(value, width, bold=b), rtl) + GAP for value, width in zip(values, widths))
            for values, b in zip(zip(*columns), bold)]
    return Numbers([width + em(GAP) for width in widths], rows)


def _split(label: str, room: float, language: str) -> tuple[str, str]:
    """A label on one line if it fits `room` em, else its first words that fit and the rest (a second line)."""
    words = label.split(" ")
    if len(words) == 1 or measured([label], language=language, bold=True)[0] <= room + 0.3:
        return label, ""
    cut = next((n for n in range(len(words) - 1, 0, -1)
                if measured([" ".join(words[:n])], language=language, bold=True)[0] <= room + 0.3), 1)
    return " ".join(words[:cut]), " ".join(words[cut:])


def header(labels: list[str], widths: list[float], last: str, *, language: str) -> list[str]:
    """The header's lines (one or two): each number column's label ending where its values end, and `last` (the
    name column's) where the names start; a label wider than its column goes on with its last words below."""
    gap = em(GAP)
    splits = [_split(label, width - gap, language) for label, width in zip(labels, widths)]
    rows = [[first for first, _second in splits]]
    if any(second for _first, second in splits):
        rows.append([second for _first, second in splits])
    lines = []
    for row, texts in enumerate(rows):
        line: list[str] = []
        x = end = 0.0
        for text, size, width in zip(texts, measured(texts, language=language, bold=True), widths):
            end += width
            if text:
                start = max(end - gap - size, x + 0.3 if line else 0.0)
                line += [spaces(start - x), text]
                x = start + size
        if row == 0:
            line += [spaces(end - x), last]
        lines.append("".join(line))
    return lines


@dataclass(frozen=True)
class Group:
    """Rows printed together between two rules: their lines of text."""

    text: str
    strong: bool = False
    """Printed in bold (the players who qualify as things stand)."""
    cutoff: bool = False
    """The qualification line (a thick rule) runs under it."""

    @property
    def lines(self) -> int:
        return self.text.count("\n") + 1


@dataclass(frozen=True)
class Geometry:
    """The vertical measures of a long list, in mm, that its page breaks depend on: the type size and the line
    height go to each page's block (`style`, inherited); the padding and the rules of the header and of each group
    are the print stylesheet's (`.lines`), which these must match. (Not CSS variables: WeasyPrint resolves a
    `var()` again for every box.)"""

    font_pt: float
    line: float
    """A line's height."""
    pad: float = 0.4
    """Above and below a group, inside its rules."""
    rule: float = 0.2
    cutoff_rule: float = 0.8
    header_pad: float = 1.0
    header_rule: float = 0.4

    @property
    def style(self) -> str:
        return f"font-size: {self.font_pt:g}pt; line-height: {self.line:g}mm"

    def height(self, group: Group, language: str) -> float:
        """A group's height on a page in `language`: a line whose characters are not all in the page's first font
        counted taller (MIXED_FONTS_EM)."""
        first = _font(FIRST_FAMILY.get(language[:2], FAMILIES[0]), group.strong)
        mixed = sum(1 for line in group.text.split("\n") if not all(char in first for char in line))
        return (group.lines * self.line + mixed * MIXED_FONTS_EM * self.font_pt * PT_MM + 2 * self.pad
                + (self.cutoff_rule if group.cutoff else self.rule))

    def header_height(self, lines: int) -> float:
        return lines * (self.line + MIXED_FONTS_EM * self.font_pt * PT_MM) + self.header_pad + self.header_rule


@dataclass
class Page:
    columns: list[list[Group]] = field(default_factory=list)


def paginate(groups: list[Group], geometry: Geometry, *, language: str, height: float, first: float,
             columns: int = 1, header: float = 0.0) -> list[Page]:
    """`groups` in pages of `columns` columns, filled in order (down the first column, then the next): each column
    takes as many groups as `height` mm holds below its `header` mm, less `first` mm on the first page (its
    headings). One line's height is kept spare against rounding."""
    pages: list[Page] = []
    room = 0.0
    for group in groups:
        size = geometry.height(group, language)
        if not pages or size > room:
            if not pages or len(pages[-1].columns) == columns:
                pages.append(Page())
            pages[-1].columns.append([])
            room = height - header - geometry.line - (first if len(pages) == 1 else 0.0)
        pages[-1].columns[-1].append(group)
        room -= size
    return pages
