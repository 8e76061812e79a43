"""Algebraic seatings with no repeat pairing, for player counts that are powers of two.

Players are the vectors of GF(2)^m. A 2-dimensional subspace L = {0, u, v, u+v} splits them
into the cosets x + L, one game of 4-player tables; two players meet in that game exactly when
their difference lies in L. Games built from subspaces that share only 0 (a partial spread of
lines of PG(m-1, 2)) therefore never repeat a pairing: up to 5 games for 16 players, 9 for 32
(the largest partial spread in PG(4, 2)), 21 for 64. The search starts from such a design
when one exists for the size asked.
"""

from __future__ import annotations

import random

Assignment = list[list[list[int]]]

NODE_LIMIT = 20_000


def largest_spread(m: int) -> int:
    """Most pairwise disjoint lines in PG(m-1, 2): a full spread when m is even."""
    points = 2**m - 1
    return points // 3 if m % 2 == 0 else (points - 4) // 3


def affine_design(n: int, games: int, rng: random.Random) -> Assignment | None:
    """A repeat-free schedule of `games` games for n = 2^m ≥ 16 players, or None."""
    m = n.bit_length() - 1
    if n < 16 or n != 1 << m or games > largest_spread(m):
        return None
    lines = _partial_spread(m, games, rng)
    if lines is None:
        return None
    label = list(range(n))
    rng.shuffle(label)
    schedule: Assignment = []
    for u, v in lines:
        seen = bytearray(n)
        tables = []
        for x in range(n):
            if not seen[x]:
                block = (x, x ^ u, x ^ v, x ^ u ^ v)
                for y in block:
                    seen[y] = 1
                tables.append([label[y] for y in block])
        rng.shuffle(tables)
        schedule.append(tables)
    return schedule


def _partial_spread(m: int, wanted: int, rng: random.Random) -> list[tuple[int, int]] | None:
    """`wanted` lines {u, v, u^v} with disjoint point sets, by randomised backtracking."""
    points = list(range(1, 1 << m))
    rng.shuffle(points)
    used = bytearray(1 << m)
    holes = len(points) - 3 * wanted
    lines: list[tuple[int, int]] = []
    nodes = 0

    def extend(index: int, holes_left: int) -> bool:
        nonlocal nodes
        nodes += 1
        if len(lines) == wanted:
            return True
        if nodes > NODE_LIMIT:
            return False
        while index < len(points) and used[points[index]]:
            index += 1
        if index == len(points):
            return False
        x = points[index]
        used[x] = 1
        for y in points[index + 1:]:
            z = x ^ y
            if used[y] or used[z]:
                continue
            used[y] = used[z] = 1
            lines.append((x, y))
            if extend(index + 1, holes_left):
                return True
            lines.pop()
            used[y] = used[z] = 0
        if holes_left > 0 and extend(index + 1, holes_left - 1):
            return True
        used[x] = 0
        return False

    return lines if extend(0, holes) else None
