"""Standalone SVG picture of a base-game board, for web pages and WeasyPrint PDFs.

Pure Python, no Django. Only presentation attributes and basic shapes are used (no CSS, no
filters, no external fonts), so browsers and WeasyPrint draw the same picture. Colours step
through clearly different lightness and every hex also carries its resource as a word, so the
board reads without colour vision and in black-and-white print.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from .generator import GENERIC_HARBOR, RED_NUMBERS, Board, Harbor, Hex

FILLS: dict[str, str] = {
    "forest": "#1b5e20",
    "mountains": "#5d6d7e",
    "hills": "#d9653b",
    "pasture": "#93d3ab",
    "fields": "#f2d03b",
    "desert": "#efe6cf",
}
LABELS: dict[str, str] = {
    "forest": "wood",
    "pasture": "wool",
    "fields": "grain",
    "hills": "brick",
    "mountains": "ore",
    "desert": "desert",
}
DARK_FILLS = frozenset({"forest", "mountains"})
SEA = "#a9cce3"
INK = "#1a1a1a"
RED = "#b71c1c"
TOKEN = "#fdf6e3"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
SIDE_WORDS = ("east", "north-east", "north-west", "west", "south-west", "south-east")


def _f(value: float) -> str:
    """Short, stable coordinates: two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _centre(q: int, r: int, size: float) -> tuple[float, float]:
    return size * math.sqrt(3) * (q + r / 2), size * 1.5 * r


def _corner(cx: float, cy: float, radius: float, degrees: float) -> tuple[float, float]:
    angle = math.radians(degrees)
    return cx + radius * math.cos(angle), cy + radius * math.sin(angle)


def _points(corners: list[tuple[float, float]]) -> str:
    return " ".join(f"{_f(x)},{_f(y)}" for x, y in corners)


def pips(number: int) -> int:
    """Dots under a number token: how many of the 36 dice outcomes roll it."""
    return 6 - abs(7 - number)


def _hex(h: Hex, size: float, labels: dict[str, str]) -> list[str]:
    cx, cy = _centre(h.q, h.r, size)
    corners = [_corner(cx, cy, size, 60 * i - 30) for i in range(6)]
    text_fill = "#ffffff" if h.resource in DARK_FILLS else INK
    label_y = cy - size * 0.52 if h.number is not None else cy + size * 0.08
    parts = [
        f'<g class="tile" data-q="{h.q}" data-r="{h.r}" data-resource="{h.resource}">',
        f'<polygon class="hex" points="{_points(corners)}" fill="{FILLS[h.resource]}" '
        f'stroke="#fbf8ef" stroke-width="{_f(size * 0.06)}" stroke-linejoin="round"/>',
        f'<text x="{_f(cx)}" y="{_f(label_y)}" text-anchor="middle" font-size="{_f(size * 0.24)}" '
        f'font-weight="bold" fill="{text_fill}">{escape(labels[h.resource])}</text>',
    ]
    if h.number is not None:
        parts += _token(h.number, cx, cy + size * 0.08, size)
    parts.append("</g>")
    return parts


def _token(number: int, cx: float, cy: float, size: float) -> list[str]:
    red = number in RED_NUMBERS
    colour = RED if red else INK
    font_size = size * (0.34 if red else 0.3)
    parts = [
        f'<circle class="token" cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(size * 0.36)}" fill="{TOKEN}" '
        f'stroke="{INK}" stroke-width="{_f(size * 0.025)}"/>',
        f'<text x="{_f(cx)}" y="{_f(cy + size * 0.07)}" text-anchor="middle" font-size="{_f(font_size)}" '
        f'font-weight="bold" fill="{colour}">{number}</text>',
    ]
    count, gap = pips(number), size * 0.075
    for i in range(count):
        x = cx + (i - (count - 1) / 2) * gap
        parts.append(
            f'<circle class="pip" cx="{_f(x)}" cy="{_f(cy + size * 0.21)}" r="{_f(size * 0.027)}" '
            f'fill="{colour}"/>'
        )
    return parts


def _harbor(harbor: Harbor, size: float, labels: dict[str, str]) -> list[str]:
    """Two piers from the coastal side's corners to a round token out at sea with the ratio."""
    cx, cy = _centre(harbor.q, harbor.r, size)
    facing = -60 * harbor.side
    ends = [_corner(cx, cy, size, facing - 30), _corner(cx, cy, size, facing + 30)]
    mx, my = _corner(cx, cy, size * (math.sqrt(3) / 2 + 0.62), facing)
    generic = harbor.kind == GENERIC_HARBOR
    fill = "#ffffff" if generic else FILLS[harbor.kind]
    text_fill = "#ffffff" if harbor.kind in DARK_FILLS else INK
    parts = [
        f'<g class="harbor" data-q="{harbor.q}" data-r="{harbor.r}" data-side="{harbor.side}" '
        f'data-kind="{harbor.kind}">'
    ]
    parts += [
        f'<line x1="{_f(x)}" y1="{_f(y)}" x2="{_f(mx)}" y2="{_f(my)}" stroke="#7b5b3a" '
        f'stroke-width="{_f(size * 0.07)}" stroke-linecap="round"/>'
        for x, y in ends
    ]
    parts.append(
        f'<circle cx="{_f(mx)}" cy="{_f(my)}" r="{_f(size * 0.34)}" fill="{fill}" stroke="{INK}" '
        f'stroke-width="{_f(size * 0.025)}"/>'
    )
    lines = [harbor.ratio] if generic else [harbor.ratio, labels[harbor.kind]]
    top = my + size * 0.08 - (len(lines) - 1) * size * 0.1
    for i, line in enumerate(lines):
        parts.append(
            f'<text x="{_f(mx)}" y="{_f(top + i * size * 0.22)}" text-anchor="middle" '
            f'font-size="{_f(size * (0.22 if i == 0 else 0.17))}" font-weight="bold" '
            f'fill="{text_fill}">{escape(line)}</text>'
        )
    parts.append("</g>")
    return parts


def _spoken(h: Hex) -> str:
    return LABELS[h.resource] if h.number is None else f"{LABELS[h.resource]} {h.number}"


def board_description(board: Board) -> str:
    """What a screen reader announces, in the words the picture shows: rows, then harbours."""
    rows = []
    for r in range(-2, 3):
        rows.append(f"row {r + 3}: " + ", ".join(_spoken(h) for h in board.hexes if h.r == r))
    harbors = []
    for h in board.harbors:
        kind = h.ratio if h.kind == GENERIC_HARBOR else f"{h.ratio} {LABELS[h.kind]}"
        row = [x for x in board.hexes if x.r == h.r]
        place = row.index(board.hex_at(h.q, h.r)) + 1
        harbors.append(
            f"{kind} by the {_spoken(board.hex_at(h.q, h.r))} (row {h.r + 3}, hex {place}), "
            f"facing {SIDE_WORDS[h.side]}"
        )
    return "; ".join(rows) + ". Harbours clockwise from the top: " + "; ".join(harbors) + "."


def board_svg(board: Board, *, size: float = 40, labels: dict[str, str] | None = None, title: str | None = None,
              description: str | None = None) -> str:
    """The board as a standalone SVG document; ``size`` is a hex's corner radius in pixels.

    ``labels`` (resource → word), ``title`` and ``description`` replace the English words, so a page can
    show and announce the board in its own language.

    The root has ``role="img"`` with a <title> and a <desc> listing every hex and harbour, so it
    can be inlined in HTML as is. Element ids carry the board code, so several different boards
    can share one page.
    """
    half_width = size * (math.sqrt(3) * 2.5 + 1.45)
    half_height = size * 4.85
    sea = [_corner(0, 0, size * 5.55, 60 * i) for i in range(6)]
    ident = f"board-{board.code}"
    labels = {**LABELS, **(labels or {})}
    title = title or f"CATAN board {board.code}"
    description = description or board_description(board)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" role="img" '
        f'aria-labelledby="{ident}-title {ident}-desc" '
        f'viewBox="{_f(-half_width)} {_f(-half_height)} {_f(2 * half_width)} {_f(2 * half_height)}" '
        f'width="{_f(2 * half_width)}" height="{_f(2 * half_height)}" font-family="{FONT}">',
        f'<title id="{ident}-title">{escape(title)}</title>',
        f'<desc id="{ident}-desc">{escape(description)}</desc>',
        f'<polygon class="sea" points="{_points(sea)}" fill="{SEA}"/>',
    ]
    for harbor in board.harbors:
        parts += _harbor(harbor, size, labels)
    for h in board.hexes:
        parts += _hex(h, size, labels)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
