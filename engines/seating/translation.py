"""Repeat-free schedules for 2^m players (16 or more) at the most games possible.

Every player meets 3 others a game, so n players play at most (n - 1) // 3 games without a
repeat: 10 for 32 players (the social golfer problem's 8-4-10, open until 2004), 42 for 128.
The partial spreads of `designs.affine_design` fall one game short of that when m is odd.

Here the players are four copies of GF(2^k) (n = 4 * 2^k), player (x, c) numbered c * 2^k + x,
and every game is mapped onto itself by each translation x -> x + t. Whether two players meet
in such a game depends only on their copies and their difference x + y, so the problem on n
players shrinks to one on differences. A game is one of three shapes:

* transversal (0, a1, a2, a3): tables {(t, 0), (t + a1, 1), (t + a2, 2), (t + a3, 3)}; copies i
  and j meet at difference a_i + a_j;
* pairing: copies i, j share tables {(t, i), (t + d, i), (t + b, j), (t + b + d, j)} (difference
  d within both, b and b + d across), and the other two copies likewise;
* planes: each copy sits alone, at the cosets of a plane {0, x, y, x + y}.

No pair meets twice exactly when every (copy, difference) and (copy pair, difference) is used at
most once. With multipliers l = (0, 1, a, a^2) (m odd) or (0, 1, a, 1 + a) (m even), a the field's
generator, copies i and j get the multiplier l_ij = l_i + l_j, never 0:

* the transversals are (0, x, a x, l_3 x) for every x but 0, b and b + 1 (b a seeded field
  element), so copies i and j meet at l_ij x: every difference but l_ij {0, b, b + 1};
* the transversal (0, 0, 0, 0) takes difference 0, and the pairing piece of copies i and j,
  d = l_ij and b_ij = l_ij b, takes l_ij b and l_ij (b + 1): every cross difference once;
* within copy i the pieces use the three l_ij; when m is odd every copy leaves out the same
  l_1 + l_2 + l_3, and the rest splits into planes, found by an exact cover (Algorithm X).

One game per pairing of the copies, 2^k - 2 transversals and the plane games make
(n - 1) // 3. 32 × 10 and 128 × 42 take milliseconds.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations

from .exact_cover import exact_cover

Assignment = list[list[list[int]]]
ByPair = dict[tuple[int, int], int]  # a number for each pair of copies

COPIES = 4
COPY_PAIRS = list(combinations(range(COPIES), 2))
PAIRINGS = [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))]
# Nodes for splitting a copy's differences into planes.
NODE_LIMIT = 20_000


def most_games(n: int) -> int:
    """Games n players at tables of 4 can play with no pair meeting twice, at most."""
    return (n - 1) // 3


def translation_design(n: int, games: int, rng: random.Random) -> Assignment | None:
    """A repeat-free schedule of `games` games for n = 2^m ≥ 16 players, or None."""
    k = n.bit_length() - 3
    if n < 16 or n != 1 << (k + 2) or not 0 < games <= most_games(n):
        return None
    size = 1 << k
    times = _multiplication(k)
    multiplier = (0, 1, 2, 4) if k % 2 else (0, 1, 2, 3)  # 0, 1, a, a^2 or 1 + a as bit vectors
    within = {(i, j): multiplier[i] ^ multiplier[j] for i, j in COPY_PAIRS}
    left_out = multiplier[1] ^ multiplier[2] ^ multiplier[3]
    planes = []
    for copy in range(COPIES):
        taken = {within[pair] for pair in COPY_PAIRS if copy in pair} | {left_out}
        split = _planes(set(range(1, size)) - taken, rng)
        if split is None:
            return None
        planes.append(split)
    b = rng.randrange(2, size)
    shifts = [(0, 0, 0, 0)] + [tuple(times(multiplier[c], x) for c in range(COPIES))
                               for x in range(1, size) if x not in (b, b ^ 1)]
    pieces = {pair: times(d, b) for pair, d in within.items()}
    schedule = _games(size, shifts, within, pieces, planes)
    rng.shuffle(schedule)
    label = list(range(n))
    rng.shuffle(label)
    return [[[label[p] for p in table] for table in game] for game in schedule[:games]]


def _multiplication(k: int) -> Callable[[int, int], int]:
    """Multiplication in GF(2^k), elements as bit vectors over the basis 1, a, a^2, ..."""
    modulus = next(p for p in range(1 << k, 1 << (k + 1)) if _irreducible(p))

    def times(x: int, y: int) -> int:
        product = 0
        while y:
            if y & 1:
                product ^= x
            y >>= 1
            x <<= 1
            if x >> k:
                x ^= modulus
        return product

    return times


def _irreducible(p: int) -> bool:
    """Whether the GF(2) polynomial p (bit i: the coefficient of x^i) has no factor of lower degree."""
    degree = p.bit_length() - 1
    for q in range(2, 1 << (degree // 2 + 1)):
        remainder = p
        while remainder.bit_length() >= q.bit_length():
            remainder ^= q << (remainder.bit_length() - q.bit_length())
        if not remainder:
            return False
    return True


def _planes(differences: set[int], rng: random.Random) -> list[tuple[int, int, int]] | None:
    """The differences split into planes {x, y, x + y} (an exact cover), or None."""
    rows = {
        (x, y, x ^ y): (x, y, x ^ y)
        for x, y in combinations(sorted(differences), 2)
        if x < y < x ^ y and x ^ y in differences
    }
    chosen = exact_cover(rows, rng, NODE_LIMIT)
    return None if chosen is None else sorted(chosen)


def _games(size: int, shifts: list[tuple[int, ...]], within: ByPair, pieces: ByPair,
           planes: list[list[tuple[int, int, int]]]) -> Assignment:
    """Every game of the design, players numbered copy * size + x."""
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
