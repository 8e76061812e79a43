"""Base-game CATAN board generator (5th edition, 3–4 players).

Pure Python, no Django: tournaments need one reproducible board per game (docs/rules.md §5), so a
board is a function of a seed, and every board has a short code that recreates it exactly
(for crafted boards, printed sheets and URLs).

Geometry: pointy-top hexes in axial coordinates (q, r); the 19 land hexes are those with
|q|, |r|, |q + r| ≤ 2 and r grows downwards. ``DIRECTIONS[side]`` is the neighbour across
side 0–5 of a hex: 0 east, 1 north-east, 2 north-west, 3 west, 4 south-west, 5 south-east
(anticlockwise on screen).

Numbers: besides the rule that 6 and 8 never touch, the generator also keeps two equal
numbers apart, which spreads every number's odds over the island. ``decode_board`` only
enforces the rule, so hand-crafted boards that put, say, two 5s side by side stay valid.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

RESOURCE_COUNTS: dict[str, int] = {
    "forest": 4,
    "pasture": 4,
    "fields": 4,
    "hills": 3,
    "mountains": 3,
    "desert": 1,
}
NUMBER_COUNTS: dict[int, int] = {2: 1, 3: 2, 4: 2, 5: 2, 6: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 1}
GENERIC_HARBOR = "3:1"
HARBOR_COUNTS: dict[str, int] = {
    GENERIC_HARBOR: 4,
    "forest": 1,
    "pasture": 1,
    "fields": 1,
    "hills": 1,
    "mountains": 1,
}
RED_NUMBERS = frozenset({6, 8})

DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
SIDE_NAMES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")

# Reading order (top row first, left to right): the order of hexes in the JSON and the code.
LAND: tuple[tuple[int, int], ...] = tuple(
    (q, r) for r in range(-2, 3) for q in range(-2, 3) if abs(q + r) <= 2
)
_LAND_SET = frozenset(LAND)

# The nine harbour slots of the sea frame, clockwise from the top: every other sea hex of the
# frame carries a harbour, which points at one coastal side of a land hex. The layout has the
# three-fold symmetry of the printed frame (three 2-harbour and three 1-harbour pieces).
HARBOR_SLOTS: tuple[tuple[int, int, int], ...] = (
    (1, -2, 2),
    (2, -2, 1),
    (2, -1, 0),
    (1, 1, 0),
    (0, 2, 5),
    (-1, 2, 4),
    (-2, 1, 4),
    (-2, 0, 3),
    (-1, -1, 2),
)

RESOURCE_LETTERS: dict[str, str] = {
    "forest": "F",
    "pasture": "P",
    "fields": "W",
    "hills": "H",
    "mountains": "M",
    "desert": "D",
}
_LETTER_RESOURCES = {letter: name for name, letter in RESOURCE_LETTERS.items()}
_NUMBER_CHARS: dict[int | None, str] = {
    None: "0",
    **{n: str(n) for n in NUMBER_COUNTS if n < 10},
    10: "a",
    11: "b",
    12: "c",
}
_CHAR_NUMBERS = {char: number for number, char in _NUMBER_CHARS.items()}
_HARBOR_CHARS: dict[str, str] = {
    GENERIC_HARBOR: "3",
    **{r: RESOURCE_LETTERS[r] for r in HARBOR_COUNTS if r != GENERIC_HARBOR},
}
_CHAR_HARBORS = {char: kind for kind, char in _HARBOR_CHARS.items()}
_CODE_SEPARATOR = "-"


def neighbours(q: int, r: int) -> list[tuple[int, int]]:
    """Land hexes touching (q, r): the adjacency the number rules are about."""
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS if (q + dq, r + dr) in _LAND_SET]


_ADJACENT_PAIRS: tuple[tuple[int, int], ...] = tuple(
    (i, LAND.index(n)) for i, (q, r) in enumerate(LAND) for n in neighbours(q, r) if LAND.index(n) > i
)


@dataclass(frozen=True)
class Hex:
    """One land hex; ``number`` is None only on the desert."""

    q: int
    r: int
    resource: str
    number: int | None


@dataclass(frozen=True)
class Harbor:
    """A harbour on the sea-facing ``side`` of land hex (q, r); ``kind`` is "3:1" or a resource."""

    q: int
    r: int
    side: int
    kind: str

    @property
    def ratio(self) -> str:
        """The trade ratio printed on the harbour token."""
        return GENERIC_HARBOR if self.kind == GENERIC_HARBOR else "2:1"


@dataclass(frozen=True)
class Board:
    """A complete base-game layout: hexes in reading order, harbours in ``HARBOR_SLOTS`` order."""

    hexes: tuple[Hex, ...]
    harbors: tuple[Harbor, ...]

    @property
    def code(self) -> str:
        """Compact URL-safe string that recreates this board with ``decode_board``.

        Two characters per hex in reading order (resource letter F/P/W/H/M/D, then the number:
        a digit, a/b/c for 10/11/12, 0 on the desert), "-", then one character per harbour slot
        ("3" for 3:1 or the resource letter).
        """
        land = "".join(RESOURCE_LETTERS[h.resource] + _NUMBER_CHARS[h.number] for h in self.hexes)
        ports = "".join(_HARBOR_CHARS[h.kind] for h in self.harbors)
        return land + _CODE_SEPARATOR + ports

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict in the shape docs/interfaces.md fixes for ``manage.py board --json``."""
        return {
            "code": self.code,
            "hexes": [{"q": h.q, "r": h.r, "resource": h.resource, "number": h.number} for h in self.hexes],
            "harbors": [{"q": h.q, "r": h.r, "side": h.side, "kind": h.kind} for h in self.harbors],
        }

    def hex_at(self, q: int, r: int) -> Hex:
        """The land hex at (q, r); KeyError off the island."""
        if (q, r) not in _LAND_SET:
            raise KeyError(f"({q}, {r}) is not a land hex")
        return self.hexes[LAND.index((q, r))]


def _multiset(counts: dict[Any, int]) -> list[Any]:
    return [item for item, count in counts.items() for _ in range(count)]


def _numbers_ok(numbers: list[int | None], *, strict: bool) -> bool:
    """True when no 6/8 touch (and, if ``strict``, no two equal numbers touch)."""
    for i, j in _ADJACENT_PAIRS:
        a, b = numbers[i], numbers[j]
        if a is None or b is None:
            continue
        if (a in RED_NUMBERS and b in RED_NUMBERS) or (strict and a == b):
            return False
    return True


def generate_board(seed: int) -> Board:
    """The board for ``seed``: same seed, same board, on every platform and Python version.

    Resources, numbers and harbour kinds are shuffled; numbers are reshuffled until they meet
    the spacing rules (a few dozen tries on average, each a handful of comparisons).
    """
    rng = random.Random(seed)
    resources = _multiset(RESOURCE_COUNTS)
    rng.shuffle(resources)
    tokens = _multiset(NUMBER_COUNTS)
    while True:
        rng.shuffle(tokens)
        draw = iter(tokens)
        numbers = [None if resource == "desert" else next(draw) for resource in resources]
        if _numbers_ok(numbers, strict=True):
            break
    kinds = _multiset(HARBOR_COUNTS)
    rng.shuffle(kinds)
    hexes = tuple(Hex(q, r, res, num) for (q, r), res, num in zip(LAND, resources, numbers, strict=True))
    harbors = tuple(Harbor(q, r, side, kind) for (q, r, side), kind in zip(HARBOR_SLOTS, kinds, strict=True))
    return Board(hexes, harbors)


def decode_board(code: str) -> Board:
    """Rebuild a board from its ``code``; ValueError naming the problem if it is not a legal board.

    Letters are read case-insensitively and surrounding blanks ignored, so a code typed from a
    printed sheet still works.
    """
    if not isinstance(code, str):
        raise ValueError("board code must be a string")
    text = code.strip()
    land_part, sep, port_part = text.partition(_CODE_SEPARATOR)
    expected = f"{2 * len(LAND)} characters, '{_CODE_SEPARATOR}', {len(HARBOR_SLOTS)} characters"
    if not sep or len(land_part) != 2 * len(LAND) or len(port_part) != len(HARBOR_SLOTS):
        raise ValueError(f"malformed board code {code!r}: expected {expected}")
    hexes = []
    for index, (q, r) in enumerate(LAND):
        letter, digit = land_part[2 * index].upper(), land_part[2 * index + 1].lower()
        if letter not in _LETTER_RESOURCES:
            raise ValueError(f"board code {code!r}: hex {index + 1} has unknown resource letter {letter!r}")
        if digit not in _CHAR_NUMBERS:
            raise ValueError(f"board code {code!r}: hex {index + 1} has unknown number {digit!r}")
        hexes.append(Hex(q, r, _LETTER_RESOURCES[letter], _CHAR_NUMBERS[digit]))
    harbors = []
    for index, ((q, r, side), char) in enumerate(zip(HARBOR_SLOTS, port_part.upper(), strict=True)):
        if char not in _CHAR_HARBORS:
            raise ValueError(f"board code {code!r}: harbour {index + 1} has unknown kind {char!r}")
        harbors.append(Harbor(q, r, side, _CHAR_HARBORS[char]))
    board = Board(tuple(hexes), tuple(harbors))
    problems = board_problems(board)
    if problems:
        raise ValueError(f"board code {code!r} is not a legal base-game board: " + "; ".join(problems))
    return board


def board_problems(board: Board) -> list[str]:
    """Every way ``board`` breaks the base-game set-up rules (empty when it is legal)."""
    problems = []
    if [(h.q, h.r) for h in board.hexes] != list(LAND):
        problems.append("hexes are not the 19 base-game land hexes in reading order")
    if [(h.q, h.r, h.side) for h in board.harbors] != list(HARBOR_SLOTS):
        problems.append("harbours are not on the 9 standard frame positions")
    _compare(problems, "resources", Counter(h.resource for h in board.hexes), RESOURCE_COUNTS)
    _compare(problems, "number tokens", Counter(h.number for h in board.hexes if h.number), NUMBER_COUNTS)
    _compare(problems, "harbour kinds", Counter(h.kind for h in board.harbors), HARBOR_COUNTS)
    if any((h.resource == "desert") != (h.number is None) for h in board.hexes):
        problems.append("the desert, and only the desert, must have no number")
    elif not _numbers_ok([h.number for h in board.hexes], strict=False):
        problems.append("a 6 or 8 touches another 6 or 8")
    return problems


def _compare(problems: list[str], what: str, actual: Counter[Any], expected: dict[Any, int]) -> None:
    """Name the set wanted and the counts that are off, so a hand-typed code can be fixed."""
    if actual == Counter(expected):
        return
    wanted = ", ".join(f"{item} ({count})" for item, count in expected.items())
    off = ", ".join(
        f"{item} ({actual[item]})"
        for item in dict.fromkeys([*expected, *actual])
        if actual[item] != expected.get(item, 0)
    )
    problems.append(f"{what} must be {wanted}; found {off}")


TEXT_ABBREVIATIONS: dict[str, str] = {
    "forest": "FOR",
    "pasture": "PAS",
    "fields": "FLD",
    "hills": "HIL",
    "mountains": "MTN",
    "desert": "DES",
}


def board_text(board: Board) -> str:
    """Plain-text board for a terminal or a referee's note: staggered rows, then the harbours."""
    cell = 8
    lines = [f"Board {board.code}", ""]
    for r in range(-2, 3):
        row = [h for h in board.hexes if h.r == r]
        cells = [f"{TEXT_ABBREVIATIONS[h.resource]} {h.number or '--':>2}".ljust(cell) for h in row]
        lines.append((" " * (abs(r) * cell // 2) + "".join(cells)).rstrip())
    lines.append("")
    lines.append("Legend: " + ", ".join(f"{abbr} {name}" for name, abbr in TEXT_ABBREVIATIONS.items()))
    lines.append("")
    lines.append("Harbours (clockwise from the top):")
    for h in board.harbors:
        kind = h.ratio if h.kind == GENERIC_HARBOR else f"{h.ratio} {h.kind}"
        coast = TEXT_ABBREVIATIONS[board.hex_at(h.q, h.r).resource]
        lines.append(f"  {kind:<13} {SIDE_NAMES[h.side]:>2} side of {coast} at (q={h.q}, r={h.r})")
    return "\n".join(lines) + "\n"
