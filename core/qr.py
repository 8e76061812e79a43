"""QR codes as segno makes them, the data mask chosen in a fraction of segno's time.

segno tries the eight data masks of ISO/IEC 18004 (7.8.3) module by module in Python, three quarters of a code's
time and a fifth of the time of 50 record sheets. Here the same penalties (N1 to N4, as segno counts them) are
counted on whole rows (bits of an int, runs found by a regular expression), and segno makes the code with the mask
they choose: the same symbol, module for module (tests/printing/test_qr.py compares them).
"""
import re
from functools import cache

import segno
from segno import encoder

_RUN = re.compile(rb"0{5,}|1{5,}")
"""N1: five or more modules of one colour in a row (a row or column written as b"0" and b"1")."""
_FINDER_LIKE = b"1011101"
"""N3: dark, light, dark × 3, light, dark."""


@cache
def _geometry(size: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """For a QR code of `size` modules square, each row as bits (bit j, column j): the data region, the function
    patterns' dark modules (the format and version areas light, as segno evaluates them before writing them) and,
    for each mask, the modules it flips."""
    function = encoder.make_matrix(size, size)  # type: ignore[no-untyped-call]  # segno's encoder has no annotations
    encoder.add_finder_patterns(function, size, size)  # type: ignore[no-untyped-call]  # segno's encoder has no annotations
    encoder.add_alignment_patterns(function, size, size)  # type: ignore[no-untyped-call]  # segno's encoder has no annotations

    def bits(row: bytes | bytearray, value: int) -> int:
        return sum(1 << j for j, module in enumerate(row) if module == value)

    dark = tuple(bits(row, 0x1) for row in function)
    function[-8][8] = 0x1  # the dark module: not data, and light until the format is written
    data = tuple(bits(row, 0x2) for row in function)
    masks = tuple(tuple(sum(1 << j for j in range(size) if pattern(i, j)) & data[i] for i in range(size))
                  for pattern in encoder.get_data_mask_functions(False))  # type: ignore[no-untyped-call]
    return data, dark, masks


def _finder_like(line: bytes, size: int) -> int:
    """segno's N3 count on one row or column (its window rules at the edges included)."""
    score = 0
    at = line.find(_FINDER_LIKE)
    while at != -1:
        after = at + 7
        if at in (0, size - 7) or b"1" not in line[max(at - 4, 0):at] or b"1" not in line[after:after + 4]:
            score += 40
        else:
            after = at + 4
        at = line.find(_FINDER_LIKE, after)
    return score


def _penalty(rows: list[int], size: int) -> int:
    """N1 + N2 + N3 + N4 of a masked symbol (ISO/IEC 18004 7.8.3.1, table 11), as segno's `mask_scores`."""
    lines = [format(row, f"0{size}b")[::-1].encode() for row in rows]
    columns = [bytes(column) for column in zip(*lines, strict=True)]
    score = sum(len(run) - 2 for line in (*lines, *columns) for run in _RUN.findall(line))
    pair = (1 << (size - 1)) - 1
    for above, row in zip(rows, rows[1:], strict=False):
        same = ~(above ^ row)
        score += 3 * (same & (same >> 1) & ~(row ^ (row >> 1)) & pair).bit_count()
    score += sum(_finder_like(line, size) for line in (*lines, *columns))
    dark = sum(row.bit_count() for row in rows)
    return score + 10 * int(abs(float(dark) / (size ** 2) * 100 - 50) / 5)


def make(payload: str, error: str) -> segno.QRCode:
    """`segno.make(payload, error=error)`: the same QR code."""
    first = segno.make(payload, error=error, mask=0)
    if first.is_micro:  # a payload of a few characters: segno's own choice, among four masks
        return segno.make(payload, error=error)
    size = len(first.matrix)
    data, dark, masks = _geometry(size)
    bits = [(sum(1 << j for j, module in enumerate(row) if module) & region) ^ flipped
            for row, region, flipped in zip(first.matrix, data, masks[0], strict=True)]
    scores = [_penalty([d | (b ^ m) for d, b, m in zip(dark, bits, mask, strict=True)], size) for mask in masks]
    best = scores.index(min(scores))
    return first if best == 0 else segno.make(payload, error=error, mask=best)
