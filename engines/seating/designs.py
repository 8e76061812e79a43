"""Structured seatings with no repeat pairing: algebraic ones for powers of two, rotational ones.

Players are the vectors of GF(2)^m. A 2-dimensional subspace L = {0, u, v, u+v} splits them
into the cosets x + L, one game of 4-player tables; two players meet in that game exactly when
their difference lies in L. Games built from subspaces that share only 0 (a partial spread of
lines of PG(m-1, 2)) therefore never repeat a pairing: up to 5 games for 16 players, 9 for 32
(the largest partial spread in PG(4, 2)), 21 for 64. The search starts from such a design
when one exists for the size asked, and from `translation.translation_design` when the games
asked are more than a partial spread gives (32 × 10). When the first search stays above its lower
bound, it also tries a rotational schedule (`rotational_design`): one game searched, the others
its shifts.
"""

from __future__ import annotations

import random

Assignment = list[list[list[int]]]

NODE_LIMIT = 20_000
# Tabu steps of the rotational search (a few seconds at 32 players), and steps without a new
# best before it kicks the base game with two random swaps.
ROTATION_STEPS = 600
ROTATION_PATIENCE = 200


def largest_spread(m: int) -> int:
    """Most pairwise disjoint lines in PG(m-1, 2): a full spread when m is even."""
    points = (1 << m) - 1
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


def rotational_design(n: int, games: int, rng: random.Random, steps: int = ROTATION_STEPS) -> Assignment | None:
    """A repeat-free schedule of `games` games for n players at tables of 4, searched among the
    schedules that a cyclic shift maps onto themselves, or None when the search finds none.

    With k = games, the players are c cycles of length k (c = n // k) and f = n - c·k fixed
    points; the shift σ moves each cycle one step and game s is σ^s of one base game. Two
    players meet in game s exactly when σ^-s of them meet in the base game, so a pair orbit
    under σ met twice in the base game is a repeat in every game, and a short orbit (a pair σ
    maps onto itself in fewer than k steps: two fixed points, or opposite points of an even
    cycle) must not meet at all. The search is a conflict-directed tabu search over one game
    instead of k, which is what makes e.g. 32 players × 9 games easy (for 10 games no such
    base game turns up: `translation` builds that one).
    """
    if n % 4 or games < 2:
        return None
    cycles, fixed = divmod(n, games)
    if not cycles or fixed > n // 4:
        return None
    k, moving = games, cycles * games
    orbit_of: list[list[int]] = [[0] * n for _ in range(n)]
    ids: dict[tuple[int, ...], int] = {}
    short: set[int] = set()
    for p in range(n):
        for q in range(p + 1, n):
            if p >= moving:
                key: tuple[int, ...] = (0, p, q)
                is_short = True
            elif q >= moving:
                key, is_short = (1, p // k, q), False
            else:
                (i, u), (j, v) = divmod(p, k), divmod(q, k)
                d = (v - u) % k
                if i == j:
                    d = min(d, k - d)
                key, is_short = (2, i, j, d), i == j and 2 * d == k
            orbit = ids.setdefault(key, len(ids))
            orbit_of[p][q] = orbit_of[q][p] = orbit
            if is_short:
                short.add(orbit)
    base = _rotational_base(n, orbit_of, short, len(ids), rng, steps)
    if base is None:
        return None
    label = list(range(n))
    rng.shuffle(label)

    def shift(p: int, s: int) -> int:
        return p if p >= moving else p - p % k + (p % k + s) % k

    return [[[label[shift(p, s)] for p in table] for table in base] for s in range(games)]


def _rotational_base(
    n: int, orbit_of: list[list[int]], short: set[int], orbits: int, rng: random.Random, steps: int
) -> list[list[int]] | None:
    """One game in which no pair orbit is met twice and no short orbit at all, by tabu search."""
    forbidden = n * n  # a short orbit outweighs any number of doubled ones

    def weight(orbit: int, count: int) -> int:
        return forbidden * count if orbit in short else max(0, count - 1)

    players = list(range(n))
    rng.shuffle(players)
    tables = [players[i:i + 4] for i in range(0, n, 4)]
    where = [0] * n
    count = [0] * orbits
    for t, table in enumerate(tables):
        for i, p in enumerate(table):
            where[p] = t
            for q in table[i + 1:]:
                count[orbit_of[p][q]] += 1
    cost = sum(weight(o, c) for o, c in enumerate(count))
    best = cost
    tabu: dict[tuple[int, int], int] = {}
    since = 0

    def change(a: int, b: int) -> tuple[int, dict[int, int]]:
        moved: dict[int, int] = {}
        for x, y in ((a, b), (b, a)):
            for z in tables[where[x]]:
                if z != x:
                    moved[orbit_of[x][z]] = moved.get(orbit_of[x][z], 0) - 1
                    moved[orbit_of[y][z]] = moved.get(orbit_of[y][z], 0) + 1
        delta = sum(weight(o, count[o] + d) - weight(o, count[o]) for o, d in moved.items() if d)
        return delta, moved

    def swap(a: int, b: int, moved: dict[int, int]) -> None:
        for o, d in moved.items():
            count[o] += d
        ta, tb = where[a], where[b]
        tables[ta][tables[ta].index(a)] = b
        tables[tb][tables[tb].index(b)] = a
        where[a], where[b] = tb, ta

    for step in range(steps):
        if not cost:
            return tables
        clashing = sorted({p for table in tables for p in table for q in table
                           if q != p and (count[orbit_of[p][q]] > 1 or orbit_of[p][q] in short)})
        best_delta, moves = None, []
        for a in clashing:
            for b in range(n):
                if where[b] == where[a]:
                    continue
                delta, _ = change(a, b)
                if cost + delta >= best and (tabu.get((a, where[b]), 0) > step or tabu.get((b, where[a]), 0) > step):
                    continue
                if best_delta is None or delta < best_delta:
                    best_delta, moves = delta, [(a, b)]
                elif delta == best_delta:
                    moves.append((a, b))
        if not moves:
            continue
        a, b = moves[rng.randrange(len(moves))]
        delta, moved = change(a, b)
        tenure = 3 + rng.randrange(7)
        tabu[(a, where[a])] = tabu[(b, where[b])] = step + tenure
        swap(a, b, moved)
        cost += delta
        if cost < best:
            best, since = cost, 0
        else:
            since += 1
            if since > ROTATION_PATIENCE:
                since = 0
                for _ in range(2):
                    a, b = rng.randrange(n), rng.randrange(n)
                    if where[a] != where[b]:
                        delta, moved = change(a, b)
                        swap(a, b, moved)
                        cost += delta
    return tables if not cost else None
