"""Repeat-free schedules for 2^m players (16 or more) at the most games possible.

Every player meets 3 others a game, so n players play at most (n - 1) // 3 games without a
repeat: 10 for 32 players (the social golfer problem's 8-4-10, open until 2004), 42 for 128.
The partial spreads of `designs.affine_design` fall one game short of that when m is odd.

Here the players are four copies of GF(2)^k (n = 4 * 2^k), player (x, c) numbered c * 2^k + x,
and every game is mapped onto itself by each translation x -> x + t. Whether two players meet
in such a game depends only on their copies and their difference x + y, so the problem on n
players shrinks to one on differences. A game is one of three shapes:

* transversal (0, a1, a2, a3): tables {(t, 0), (t + a1, 1), (t + a2, 2), (t + a3, 3)}; copies i
  and j meet at difference a_i + a_j;
* pairing: copies i, j share tables {(t, i), (t + d, i), (t + b, j), (t + b + d, j)} (difference
  d within both, b and b + d across), and the other two copies likewise;
* planes: each copy sits alone, at the cosets of a plane {0, x, y, x + y}.

No pair meets twice exactly when every (copy, difference) and (copy pair, difference) is used at
most once. With one pairing piece per copy pair, counting forces the rest: the cross differences
of copies i and j that transversals use add up to the piece's d_ij, so d_ij = A_i + A_j for four
distinct vectors A, which translations and linear maps bring to A = (0, 1, 2, 4) (m odd) or
(0, 1, 2, 3) (m even). Every copy then leaves out the same difference A_1 + A_2 + A_3 (none when
m is even), its other within-copy differences split into planes, and what remains - which b each
piece takes and which transversals cover the cross differences - is an exact cover, searched
with Algorithm X. 32 × 10 takes a millisecond; 128 × 42 a few restarts of a few seconds each.
"""

from __future__ import annotations

import random
from itertools import combinations, permutations

from .exact_cover import exact_cover

Assignment = list[list[list[int]]]

COPIES = 4
COPY_PAIRS = list(combinations(range(COPIES), 2))
PAIRINGS = [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))]
# Nodes per exact-cover attempt and attempts (each with a new seeded row order).
NODE_LIMIT = 20_000
ATTEMPTS = 4


def most_games(n: int) -> int:
    """Games n players at tables of 4 can play with no pair meeting twice, at most."""
    return (n - 1) // 3


def translation_design(
    n: int, games: int, rng: random.Random, attempts: int = ATTEMPTS, node_limit: int = NODE_LIMIT
) -> Assignment | None:
    """A repeat-free schedule of `games` games for n = 2^m ≥ 16 players, or None."""
    k = n.bit_length() - 3
    if n < 16 or n != 1 << (k + 2) or not 0 < games <= most_games(n):
        return None
    size = 1 << k
    anchors = (0, 1, 2, 4) if k % 2 else (0, 1, 2, 3)
    within = {pair: anchors[pair[0]] ^ anchors[pair[1]] for pair in COPY_PAIRS}
    left_out = anchors[1] ^ anchors[2] ^ anchors[3]
    planes = []
    for copy in range(COPIES):
        taken = {within[pair] for pair in COPY_PAIRS if copy in pair} | {left_out}
        split = _planes(set(range(1, size)) - taken, rng)
        if split is None:
            return None
        planes.append(split)
    rows = _cross_rows(size, within)
    for _ in range(attempts):
        cover = exact_cover(rows, rng, node_limit)
        if cover is not None:
            break
    else:
        return None
    schedule = _games(size, cover, within, planes)
    rng.shuffle(schedule)
    label = list(range(n))
    rng.shuffle(label)
    return [[[label[p] for p in table] for table in game] for game in schedule[:games]]


def _planes(differences: set[int], rng: random.Random) -> list[tuple[int, int, int]] | None:
    """The differences split into planes {x, y, x + y} (an exact cover), or None."""
    rows = {
        (x, y, x ^ y): (x, y, x ^ y)
        for x, y in combinations(sorted(differences), 2)
        if x < y < x ^ y and x ^ y in differences
    }
    chosen = exact_cover(rows, rng, NODE_LIMIT)
    return None if chosen is None else sorted(chosen)


def _cross_rows(size: int, within: dict[tuple[int, int], int]) -> dict[tuple, list[tuple]]:
    """Exact-cover rows for the cross differences: every (copy pair, difference) but 0, which
    the transversal (0, 0, 0, 0) takes, and one pairing piece per copy pair."""
    rows: dict[tuple, list[tuple]] = {}
    for a in permutations(range(1, size), 3):
        shifts = (0, *a)
        rows[("transversal", *a)] = [("cross", i, j, shifts[i] ^ shifts[j]) for i, j in COPY_PAIRS]
    for (i, j), d in within.items():
        for b in range(1, size):
            if b < b ^ d:
                rows[("piece", i, j, b)] = [("piece", i, j), ("cross", i, j, b), ("cross", i, j, b ^ d)]
    return rows


def _games(
    size: int, cover: list, within: dict[tuple[int, int], int], planes: list[list[tuple[int, int, int]]]
) -> Assignment:
    """The games of a solved cover, players numbered copy * size + x."""
    pieces = {(row[1], row[2]): row[3] for row in cover if row[0] == "piece"}
    shifts = [(0, 0, 0, 0)] + [(0, *row[1:]) for row in cover if row[0] == "transversal"]
    schedule = [[[c * size + (t ^ s) for c, s in enumerate(shift)] for t in range(size)] for shift in shifts]
    for pairing in PAIRINGS:
        game = []
        for i, j in pairing:
            d, b = within[(i, j)], pieces[(i, j)]
            game += [[i * size + t, i * size + (t ^ d), j * size + (t ^ b), j * size + (t ^ b ^ d)]
                     for t in range(size) if t < t ^ d]
        schedule.append(game)
    for plane_game in zip(*planes):
        game = []
        for copy, (x, y, z) in enumerate(plane_game):
            game += [[copy * size + u for u in (t, t ^ x, t ^ y, t ^ z)]
                     for t in range(size) if t == min(t, t ^ x, t ^ y, t ^ z)]
        schedule.append(game)
    return schedule
