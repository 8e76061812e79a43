"""QR codes as segno makes them, the data mask chosen in a fraction of segno's time, and written as a PNG that
WeasyPrint embeds without converting it.

segno tries the eight data masks of ISO/IEC 18004 (7.8.3) module by module in Python, three quarters of a code's
time and a fifth of the time of 50 record sheets. Here the same penalties (N1 to N4, as segno counts them) are
counted on whole rows and columns (bits of an int), and the symbol segno made with the first mask is re-masked
with the one they choose and given that mask's format information, instead of being encoded again: the same
symbol, module for module (tests/printing/test_qr.py compares them).
"""
import base64
import struct
import zlib
from functools import cache

import segno
from segno import encoder

_DIGITS = bytes.maketrans(b"\x00\x01", b"01")
"""A row of segno's matrix (modules 0 and 1) as the digits of a binary number."""
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


@cache
def _line_bits(size: int) -> int:
    """Where the modules are when a symbol's rows and columns are written end to end, five light modules apart."""
    return int(b"00000".join([b"1" * size] * (2 * size)), 2)


def _runs(lines: list[bytes], size: int) -> int:
    """N1 of all rows and columns at once: each run of five or more modules of one colour scores its length − 2,
    that is its windows of five plus 2. The lines are written end to end as one int, five light modules apart, so
    no run of dark modules crosses from one line into the next, nor one of light ones (the gaps are left out)."""
    dark = int(b"00000".join(lines), 2)
    score = 0
    for same in (dark, ~dark & _line_bits(size)):
        five = same & same >> 1 & same >> 2 & same >> 3 & same >> 4
        score += five.bit_count() + 2 * (five & ~(five << 1)).bit_count()
    return score


def _penalty(rows: list[int], size: int) -> int:
    """N1 + N2 + N3 + N4 of a masked symbol (ISO/IEC 18004 7.8.3.1, table 11), as segno's `mask_scores`."""
    lines = [format(row, f"0{size}b")[::-1].encode() for row in rows]
    columns = [bytes(column) for column in zip(*lines, strict=True)]
    score = _runs([*lines, *columns], size)
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
    bits = [(int(bytes(row).translate(_DIGITS)[::-1], 2) & region) ^ flipped
            for row, region, flipped in zip(first.matrix, data, masks[0], strict=True)]
    scores = [_penalty([d | (b ^ m) for d, b, m in zip(dark, bits, mask, strict=True)], size) for mask in masks]
    best = scores.index(min(scores))
    return first if best == 0 else _masked(first, masks[0], masks[best], best)


def _masked(code: segno.QRCode, applied: tuple[int, ...], chosen: tuple[int, ...], mask: int) -> segno.QRCode:
    """`code` (made with the data mask `applied`) with the data mask `chosen` instead, and its format information."""
    for row, old, new in zip(code.matrix, applied, chosen, strict=True):
        flip = old ^ new
        while flip:
            column = flip.bit_length() - 1
            row[column] ^= 0x1
            flip ^= 1 << column
    encoder.add_format_info(code.matrix, code._version, code._error, mask)  # type: ignore[no-untyped-call]  # segno's encoder has no annotations
    code.mask = mask
    return code


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack("!I", len(data)) + kind + data + struct.pack("!I", zlib.crc32(kind + data))


def grey_png_data_uri(code: segno.QRCode) -> str:
    """`code` as an 8-bit greyscale PNG, one pixel per module and no quiet zone (the page around it is blank).
    segno writes a 1-bit PNG, which WeasyPrint converts to RGB and encodes again on every page: this one it
    embeds as it is, in a third of the bytes (50 record sheets: 0.04 s less)."""
    size = len(code.matrix)
    pixels = b"".join(b"\0" + bytes(0 if module else 255 for module in row) for row in code.matrix)
    png = (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack("!IIBBBBB", size, size, 8, 0, 0, 0, 0))
           + _chunk(b"IDAT", zlib.compress(pixels, 9)) + _chunk(b"IEND", b""))
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")
