"""Proofs about repeat pairings: whether a stage can be seated with no pairing repeated at all,
or with a single one.

The search's lower bound (`cost.Model`) counts what pigeonhole forces; it cannot see that, say,
20 players at 5 tables cannot play 6 games without a repeat although each of them has only 18
of their 19 possible opponents to meet. `repeat_free` settles such small stages exactly, by an
exhaustive search that fixes what symmetry allows:

* game 1 seats players 0-3, 4-7, ... (players are interchangeable);
* game 2 then shares no pair with game 1, so each of its tables takes its players from four
  different game-1 tables. Which ones is a 0/1 pattern (rows: game-2 tables, columns: game-1
  tables, all sums 4); rows are sorted because tables are interchangeable, and the members of a
  game-1 table are interchangeable, so they are handed out in order;
* every remaining game is then one of the "rounds" that share no pair with games 1 and 2, all
  of which are listed; games are interchangeable, so what is left is to find games - 2 rounds
  that pairwise share no pair: a clique search on bit sets, rounds in increasing order.

`one_repeat_possible` does the same after a game 2 that repeats exactly one pair of game 1.
Plain integers and bit masks, no dependency; a limit on the rounds listed keeps it bounded
(`None`: undecided).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations, permutations

TABLE = 4
# Nodes of the round listing per game-2 pattern: 20 players need well under this (9,408 rounds;
# 17,536 after a game 2 that repeats one pair).
NODE_LIMIT = 400_000


@lru_cache(maxsize=64)
def repeat_free(players: int, games: int, node_limit: int = NODE_LIMIT) -> bool | None:
    """Whether `games` games at tables of 4 can seat `players` (a multiple of 4) with no pair
    meeting twice: True or False when the search finished, None when it hit the node limit."""
    if players % TABLE or players < 2 * TABLE:
        raise ValueError("repeat_free needs tables of 4 only, at least two of them")
    tables = players // TABLE
    if games * (TABLE - 1) > players - 1:
        return False  # every player would need more opponents than exist
    if tables < TABLE:
        return games == 1  # game 2 cannot split every game-1 table over different tables
    if games <= 2:
        return True  # game 2 from any pattern (one exists: tables at least 4)
    return _completes(players, games, doubled=False, node_limit=node_limit)


@lru_cache(maxsize=64)
def one_repeat_possible(players: int, games: int, node_limit: int = NODE_LIMIT) -> bool | None:
    """Whether `games` games at tables of 4 can seat `players` (a multiple of 4) with exactly one
    pair meeting twice and no other repeat: True or False when the search finished, None when it
    hit the node limit. With `repeat_free` False, False here proves at least 2 repeats.

    The two games that seat the pair are games 1 and 2 (games are interchangeable), so one
    game-2 table takes two players from the same game-1 table and every other game-2 table
    takes its players from four different ones; the other games repeat nothing, as in
    `repeat_free`.
    """
    if players % TABLE or players < 2 * TABLE:
        raise ValueError("one_repeat_possible needs tables of 4 only, at least two of them")
    if games < 2 or games * (TABLE - 1) > players - 1:
        return False  # one game repeats nothing; a player outside the pair would run out of opponents
    return _completes(players, games, doubled=True, node_limit=node_limit)


def _completes(players: int, games: int, *, doubled: bool, node_limit: int) -> bool | None:
    """Whether some game-2 pattern extends to `games` games that repeat nothing more (None: a
    round listing hit the node limit)."""
    for pattern in _patterns(players // TABLE, doubled=doubled):
        rounds = _rounds(players, _met_after_two_games(players, pattern), node_limit)
        if rounds is None:
            return None
        if _clique(rounds, games - 2):
            return True
    return False


def _met_after_two_games(players: int, pattern: list[tuple[int, ...]]) -> list[int]:
    """Who met whom (bit masks) after game 1 (players in order) and game 2 (from the pattern)."""
    handed = [0] * (players // TABLE)
    second = []
    for row in pattern:
        second.append([group * TABLE + handed[group] for group in row])
        for group in row:
            handed[group] += 1
    first = [list(range(t * TABLE, (t + 1) * TABLE)) for t in range(players // TABLE)]
    met = [0] * players
    for table in (*first, *second):
        bits = sum(1 << p for p in table)
        for p in table:
            met[p] |= bits & ~(1 << p)
    return met


def _rounds(players: int, met: list[int], node_limit: int) -> list[int] | None:
    """Every game that repeats no pair of `met`, as a bit mask of the pairs it seats together."""
    found: list[int] = []
    nodes = 0

    def seat(free: int, pairs: int) -> bool:
        nonlocal nodes
        if not free:
            found.append(pairs)
            return True
        nodes += 1
        if nodes > node_limit:
            return False
        p = (free & -free).bit_length() - 1
        rest = free & ~(1 << p)
        for trio in _trios(rest & ~met[p], met):
            table = (p, *trio)
            together = pairs
            for a, b in combinations(table, 2):
                together |= 1 << (a * players + b)
            if not seat(rest & ~sum(1 << x for x in trio), together):
                return False
        return True

    return found if seat((1 << players) - 1, 0) else None


def _clique(rounds: list[int], size: int) -> bool:
    """Whether `size` of the rounds pairwise share no pair."""
    if size <= 0:
        return True
    holding: dict[int, int] = {}  # pair -> rounds seating it (bit set over round indexes)
    for index, pairs in enumerate(rounds):
        while pairs:
            low = pairs & -pairs
            holding[low] = holding.get(low, 0) | (1 << index)
            pairs ^= low
    everyone = (1 << len(rounds)) - 1
    apart = []
    for pairs in rounds:
        clash = 0
        while pairs:
            low = pairs & -pairs
            clash |= holding[low]
            pairs ^= low
        apart.append(everyone & ~clash)

    def extend(candidates: int, left: int) -> bool:
        if not left:
            return True
        while candidates:
            index = (candidates & -candidates).bit_length() - 1
            candidates &= candidates - 1
            if extend(candidates & apart[index], left - 1):
                return True
        return False

    return extend(everyone, size)


def _trios(candidates: int, met: list[int]) -> Iterator[tuple[int, int, int]]:
    """Three players from `candidates`, increasing, none of whom met."""
    while candidates:
        a = (candidates & -candidates).bit_length() - 1
        candidates &= candidates - 1
        after_a = candidates & ~met[a]
        while after_a:
            b = (after_a & -after_a).bit_length() - 1
            after_a &= after_a - 1
            after_b = after_a & ~met[b]
            while after_b:
                c = (after_b & -after_b).bit_length() - 1
                after_b &= after_b - 1
                yield a, b, c


def _patterns(tables: int, doubled: bool = False) -> Iterator[list[tuple[int, ...]]]:
    """Game-2 patterns: for each game-2 table the game-1 tables it draws its 4 players from,
    every game-1 table drawn from 4 times, rows in non-decreasing order. Each row draws from 4
    different tables; with `doubled`, exactly one row draws twice from one table, (a, a, b, c):
    game 2 then repeats exactly one pair of game 1. Game-1 tables are interchangeable too, so
    a pattern that renumbering them turns into one already given is skipped."""
    rows: list[tuple[int, ...]] = []
    seen: set[tuple[tuple[int, ...], ...]] = set()
    renumberings = list(permutations(range(tables)))
    uses = [0] * tables
    choices = list(combinations(range(tables), TABLE))
    if doubled:
        choices += [(a, a, *rest) for a in range(tables)
                    for rest in combinations([g for g in range(tables) if g != a], TABLE - 2)]
        choices.sort()

    def extend(start: int, doubles: int) -> Iterator[list[tuple[int, ...]]]:
        if len(rows) == tables:
            if doubles == doubled:
                form = min(tuple(sorted(tuple(sorted(to[g] for g in row)) for row in rows)) for to in renumberings)
                if form not in seen:
                    seen.add(form)
                    yield list(rows)
            return
        for index in range(start, len(choices)):
            row = choices[index]
            double = len(set(row)) < TABLE
            if double and doubles:
                continue
            if all(uses[g] + row.count(g) <= TABLE for g in set(row)):
                for g in row:
                    uses[g] += 1
                rows.append(row)
                yield from extend(index, doubles + double)
                rows.pop()
                for g in row:
                    uses[g] -= 1

    yield from extend(0, 0)
