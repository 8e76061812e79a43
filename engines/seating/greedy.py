"""The search's first seating: game by game, most constrained player first, each to its cheapest table."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

from .cost import Assignment, Instance, Model

# Beyond this many tables a player placed or moved looks at a seeded sample of them: on large
# stages a conflict-free table is almost always among a few dozen, and a step stays cheap.
TABLES_PER_MOVE = 48


def greedy(model: Model, inst: Instance, rng: random.Random) -> Assignment:
    """Game by game, most constrained player first, each to its cheapest table with room.

    The 3-player seats of a game go to the players who have had the fewest so far. On large
    stages a player looks at a sample of the emptiest open tables first and takes the first
    that costs nothing, so that a run of compatriots is dealt out to different tables.
    """
    n, sizes, count = model.n, model.sizes, model.tables
    add, w_country = model.add, model.w_country
    country = inst.country
    code = dict(model.base)
    get = code.get
    threes = list(inst.history_threes)
    three_seats = 3 * sizes.count(3)
    small = count <= TABLES_PER_MOVE
    # Pairs a player should not sit with: friends, compatriots, everyone met so far.
    members = Counter(country)
    constrained = [members[country[p]] - 1 if w_country else 0 for p in range(n)]
    for key, c in code.items():
        if add[c] > 0:
            constrained[key // n] += 1
    assignment: Assignment = []
    for _ in range(model.games):
        tie = list(range(n))
        rng.shuffle(tie)
        at_three = set(sorted(range(n), key=lambda p: (threes[p], tie[p]))[:three_seats])
        tables: list[list[int]] = [[] for _ in range(count)]
        # Open tables by size and by how many already sit there.
        filling = {size: [[t for t in range(count) if sizes[t] == size]] + [[] for _ in range(size - 1)]
                   for size in (3, 4)}
        slot = [0] * count
        for levels in filling.values():
            for i, t in enumerate(levels[0]):
                slot[t] = i
        for p in sorted(range(n), key=lambda p: (-constrained[p], tie[p])):
            row, own = p * n, country[p]
            size = 3 if p in at_three else 4
            levels = filling[size]
            best_table, best_cost = -1, 0
            if small:
                start = rng.randrange(count)
                rotation = [(start + step) % count for step in range(count)]
                pools = [[t for t in rotation if sizes[t] == size and len(tables[t]) < size]]
            else:
                pools = levels
            for pool in pools:
                room = len(pool)
                if not room:
                    continue
                if room <= TABLES_PER_MOVE:
                    candidates: Iterable[int] = pool
                else:  # drawn one by one: the first draw nearly always costs nothing
                    candidates = (pool[rng.randrange(room)] for _ in range(TABLES_PER_MOVE))
                for t in candidates:
                    cost = 0
                    for q in tables[t]:
                        cost += add[get(row + q, 0)]
                        if country[q] == own:
                            cost += w_country
                    if best_table < 0 or cost < best_cost:
                        best_table, best_cost = t, cost
                        if not cost:
                            break
                if best_table >= 0 and not best_cost:
                    break
            t = best_table
            table = tables[t]
            for q in table:
                key = row + q
                before = get(key, 0)
                code[key] = code[q * n + p] = before + 1
                if not add[before]:
                    constrained[p] += 1
                    constrained[q] += 1
            pool = levels[len(table)]
            last = pool.pop()
            if last != t:
                pool[slot[t]] = last
                slot[last] = slot[t]
            table.append(p)
            threes[p] += sizes[t] == 3
            if len(table) < sizes[t]:
                slot[t] = len(levels[len(table)])
                levels[len(table)].append(t)
        assignment.append(tables)
    return assignment
