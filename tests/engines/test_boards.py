"""The pure board generator and its SVG: rules of docs/rules.md §5, codes, determinism, drawing."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.boards.generator import (
    DIRECTIONS,
    HARBOR_SLOTS,
    LAND,
    Board,
    Harbor,
    Hex,
    board_problems,
    board_text,
    decode_board,
    generate_board,
    neighbours,
)
from engines.boards.svg import board_svg, pips

ROOT = Path(__file__).resolve().parents[2]
SEEDS = range(500)
SVG = "{http://www.w3.org/2000/svg}"
BASE_RESOURCES = {"forest": 4, "pasture": 4, "fields": 4, "hills": 3, "mountains": 3, "desert": 1}
BASE_NUMBERS = {2: 1, 3: 2, 4: 2, 5: 2, 6: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 1}
BASE_HARBORS = {"3:1": 4, "forest": 1, "pasture": 1, "fields": 1, "hills": 1, "mountains": 1}
# A board printed on a sheet must come back the same in every later release.
SEED_1_CODE = "W3PbM2D0W4F3M8F4MaP6W9H5H9H5PbFaW8FcP6-M333FWHP3"


@pytest.fixture(scope="module")
def boards() -> list[Board]:
    return [generate_board(seed) for seed in SEEDS]


def adjacent_pairs(board: Board) -> list[tuple[Hex, Hex]]:
    return [(a, board.hex_at(*n)) for a in board.hexes for n in neighbours(a.q, a.r) if n > (a.q, a.r)]


def test_land_is_the_19_hexes_within_distance_two() -> None:
    expected = {(q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2}
    assert len(expected) == 19
    board = generate_board(7)
    assert [(h.q, h.r) for h in board.hexes] == list(LAND)
    assert set(LAND) == expected
    assert list(LAND) == sorted(LAND, key=lambda qr: (qr[1], qr[0])), "reading order: rows top to bottom"


def test_neighbours_count_the_shared_sides() -> None:
    assert len(neighbours(0, 0)) == 6
    assert len(neighbours(2, -2)) == 3
    assert len(neighbours(1, -2)) == 4
    assert sum(len(neighbours(q, r)) for q, r in LAND) == 2 * 42


def test_every_board_has_the_base_game_tiles_and_tokens(boards: list[Board]) -> None:
    for board in boards:
        assert Counter(h.resource for h in board.hexes) == BASE_RESOURCES
        assert Counter(h.number for h in board.hexes if h.resource != "desert") == BASE_NUMBERS
        assert [h.number for h in board.hexes if h.resource == "desert"] == [None]
        assert board_problems(board) == []


def test_six_and_eight_never_touch(boards: list[Board]) -> None:
    for board in boards:
        for a, b in adjacent_pairs(board):
            assert not {a.number, b.number} <= {6, 8}, (board.code, a, b)


def test_equal_numbers_never_touch_on_generated_boards(boards: list[Board]) -> None:
    for board in boards:
        for a, b in adjacent_pairs(board):
            assert a.number is None or a.number != b.number, (board.code, a, b)


def test_layouts_vary_with_the_seed(boards: list[Board]) -> None:
    assert len({board.code for board in boards}) == len(boards)
    assert len({board.hexes[9].resource for board in boards}) == 6, "the centre takes every terrain"
    assert len({(h.q, h.r) for board in boards for h in board.hexes if h.resource == "desert"}) == 19
    assert len({tuple(h.kind for h in board.harbors) for board in boards}) > 100


def test_same_seed_same_board() -> None:
    assert generate_board(42) == generate_board(42)
    assert generate_board(-3) == generate_board(-3)
    assert generate_board(2**70).code == generate_board(2**70).code
    assert generate_board(1).code == SEED_1_CODE


def test_nine_harbours_on_coastal_sides_facing_the_sea(boards: list[Board]) -> None:
    land = set(LAND)
    for board in boards:
        assert len(board.harbors) == 9
        assert Counter(h.kind for h in board.harbors) == BASE_HARBORS
        assert [(h.q, h.r, h.side) for h in board.harbors] == list(HARBOR_SLOTS)
    for q, r, side in HARBOR_SLOTS:
        assert (q, r) in land
        dq, dr = DIRECTIONS[side]
        assert (q + dq, r + dr) not in land, f"harbour on ({q}, {r}) side {side} faces land"
    assert len(set(HARBOR_SLOTS)) == 9
    assert len({(q, r) for q, r, _ in HARBOR_SLOTS}) == 9, "one harbour per coastal hex"


def test_harbour_ratio() -> None:
    assert Harbor(0, -2, 2, "3:1").ratio == "3:1"
    assert Harbor(0, -2, 2, "hills").ratio == "2:1"


def test_to_json_has_exactly_the_documented_shape() -> None:
    data = json.loads(json.dumps(generate_board(5).to_json()))
    assert set(data) == {"code", "hexes", "harbors"}
    assert data["code"] == generate_board(5).code
    assert len(data["hexes"]) == 19
    for h in data["hexes"]:
        assert set(h) == {"q", "r", "resource", "number"}
        assert h["resource"] in BASE_RESOURCES
        assert (h["number"] is None) == (h["resource"] == "desert")
    for h in data["harbors"]:
        assert set(h) == {"q", "r", "side", "kind"}
        assert h["kind"] in BASE_HARBORS and h["side"] in range(6)


def test_code_round_trips(boards: list[Board]) -> None:
    for board in boards:
        assert re.fullmatch(r"[A-Za-z0-9-]+", board.code), "URL-safe"
        assert decode_board(board.code) == board


def test_code_is_read_leniently() -> None:
    code = generate_board(9).code
    assert decode_board(f"  {code.swapcase()}\n") == generate_board(9)


def replace_at(code: str, index: int, text: str) -> str:
    return code[:index] + text + code[index + len(text) :]


def desert_index(code: str) -> int:
    return code.index("D")


@pytest.mark.parametrize(
    ("make_code", "message"),
    [
        (lambda c: "", "malformed"),
        (lambda c: "hello", "malformed"),
        (lambda c: c[:-1], "malformed"),
        (lambda c: c.replace("-", ""), "malformed"),
        (lambda c: c + "3", "malformed"),
        (lambda c: replace_at(c, 0, "X"), "unknown resource letter 'X'"),
        (lambda c: replace_at(c, 1, "7"), "unknown number '7'"),
        (lambda c: replace_at(c, 1, "1"), "unknown number '1'"),
        (lambda c: replace_at(c, len(c) - 1, "D"), "unknown kind 'D'"),
        (lambda c: replace_at(c, desert_index(c), "F"), "resources must be"),
        (lambda c: replace_at(c, desert_index(c) + 1, "5"), "number tokens must be"),
        (lambda c: c[:-9] + "333333333", "harbour kinds must be 3:1 (4)"),
    ],
)
def test_invalid_codes_are_rejected_with_a_reason(make_code: Callable[[str], str], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        decode_board(make_code(SEED_1_CODE))


def test_adjacent_six_and_eight_are_rejected_but_other_equal_neighbours_are_not() -> None:
    board = generate_board(1)

    # Swapping two tokens keeps every count right; only the spacing rule can object.
    def swapped(a: tuple[int, int], b: tuple[int, int]) -> str:
        x, y = board.hex_at(*a), board.hex_at(*b)
        table = {a: y.number, b: x.number}
        hexes = tuple(Hex(h.q, h.r, h.resource, table.get((h.q, h.r), h.number)) for h in board.hexes)
        return Board(hexes, board.harbors).code

    six = next(h for h in board.hexes if h.number == 6)
    eight = next(h for h in board.hexes if h.number == 8)
    target = next(n for n in neighbours(six.q, six.r) if board.hex_at(*n).number not in (None, 6, 8))
    with pytest.raises(ValueError, match="a 6 or 8 touches another 6 or 8"):
        decode_board(swapped(target, (eight.q, eight.r)))
    five = next(h for h in board.hexes if h.number == 5)
    other_five = next(h for h in board.hexes if h.number == 5 and h != five)
    spot = next(
        n
        for n in neighbours(five.q, five.r)
        if board.hex_at(*n).number not in (None, 5, 6, 8) and n != (other_five.q, other_five.r)
    )
    crafted = decode_board(swapped(spot, (other_five.q, other_five.r)))
    assert board_problems(crafted) == []


@given(st.text(alphabet="DFHMPW0123456789abcX- ", max_size=60))
def test_decoding_anything_gives_a_legal_board_or_a_value_error(code: str) -> None:
    try:
        board = decode_board(code)
    except ValueError as error:
        assert str(error)
    else:
        assert board_problems(board) == []


def test_hex_at_rejects_the_sea() -> None:
    with pytest.raises(KeyError):
        generate_board(1).hex_at(3, 0)


def test_text_view_lists_rows_and_harbours() -> None:
    text = board_text(generate_board(1))
    lines = text.splitlines()
    assert lines[0] == f"Board {SEED_1_CODE}"
    assert [len(re.findall(r"[A-Z]{3} +(?:\d+|--)", line)) for line in lines[2:7]] == [3, 4, 5, 4, 3]
    assert text.count("3:1") == 4 and text.count("2:1") == 5


def test_pips_are_the_dice_odds() -> None:
    assert [pips(n) for n in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)] == [1, 2, 3, 4, 5, 5, 4, 3, 2, 1]


def test_svg_is_valid_accessible_xml_with_19_hexes() -> None:
    board = generate_board(3)
    root = ET.fromstring(board_svg(board))
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img" and root.get("viewBox")
    title = root.find(f"{SVG}title")
    assert title is not None and board.code in title.text
    labelled = root.get("aria-labelledby").split()
    ids = {el.get("id") for el in root.iter() if el.get("id")}
    assert set(labelled) <= ids
    desc = root.find(f"{SVG}desc").text
    assert desc.count("desert") >= 1 and "Harbours" in desc

    hexes = [el for el in root.iter(f"{SVG}polygon") if el.get("class") == "hex"]
    assert len(hexes) == 19
    assert all(len(el.get("points").split()) == 6 for el in hexes)
    tokens = [el for el in root.iter(f"{SVG}circle") if el.get("class") == "token"]
    assert len(tokens) == 18
    assert sum(1 for el in root.iter(f"{SVG}circle") if el.get("class") == "pip") == 58
    harbors = [el for el in root.iter(f"{SVG}g") if el.get("class") == "harbor"]
    assert len(harbors) == 9


def test_svg_labels_every_resource_and_marks_six_and_eight_red() -> None:
    board = generate_board(3)
    root = ET.fromstring(board_svg(board, size=25))
    tiles = [el for el in root.iter(f"{SVG}g") if el.get("class") == "tile"]
    words = {tile.get("data-resource"): tile.findall(f"{SVG}text")[0].text for tile in tiles}
    assert len(set(words.values())) == 6, "a distinct word per terrain, not only a colour"
    numbers = {}
    for tile in tiles:
        texts = tile.findall(f"{SVG}text")
        if len(texts) == 2:
            numbers.setdefault(texts[1].get("fill"), set()).add(int(texts[1].text))
    red = next(fill for fill, values in numbers.items() if 6 in values)
    assert numbers[red] == {6, 8}
    assert float(root.get("width")) < float(ET.fromstring(board_svg(board)).get("width"))


def test_generator_and_drawing_import_nothing_from_django() -> None:
    code = "import sys, engines.boards.generator, engines.boards.svg; print('django' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert done.stdout.strip() == "False"
