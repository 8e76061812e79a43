"""The search's cost model: the problem in integer form, its weights and the incremental state of one seating.

One lexicographic objective is folded into a single integer cost whose weights make a higher
priority always outweigh everything below it:

    friends at one table > repeat pairings > repeated positions (cwc) > compatriots (cwc)
    > uneven share of 3-player tables.

Pair terms are looked up in flat tables indexed by a per-pair "code" (kind × meetings), so a
candidate swap costs a dozen list look-ups and no allocation.
"""

from __future__ import annotations

from dataclasses import dataclass

Assignment = list[list[list[int]]]  # games → tables → player ids in seat (position) order

POSITIONS = 4


@dataclass(frozen=True)
class Instance:
    """The problem in integer form: players are 0..n-1, pair data is flat n×n."""

    n: int
    games: int
    sizes: tuple[int, ...]
    friend: bytearray
    compatriot: bytearray
    met: list[int]
    history_positions: list[list[int]]
    history_threes: list[int]
    distinct_positions: bool
    seed: int


class Model:
    """Weights, cost tables and lower bound; `track_positions` adds exact position repeats."""

    def __init__(self, inst: Instance, track_positions: bool) -> None:
        n, games, sizes = inst.n, inst.games, inst.sizes
        self.n, self.games, self.sizes, self.tables = n, games, sizes, len(sizes)
        self.track = track_positions
        has_threes = 3 in sizes
        self.has_threes = has_threes
        pair_slots = games * sum(s * (s - 1) // 2 for s in sizes) + sum(inst.met) // 2
        played = [games + len(h) for h in inst.history_positions]
        most_threes = [games + h for h in inst.history_threes]
        spread_max = sum(k**3 for k in most_threes) if has_threes else 0
        positions_on = inst.distinct_positions and (track_positions or has_threes)
        positions_max = sum(played) if positions_on else 0
        compatriots_on = any(inst.compatriot)
        w_spread = 1
        w_country = w_spread * (spread_max + 1)
        w_position = w_country * ((pair_slots if compatriots_on else 0) + 1)
        w_repeat = w_position * (positions_max + 1)
        w_friend = w_repeat * (pair_slots + 1)
        self.w_friend, self.w_repeat, self.w_position = w_friend, w_repeat, w_position

        span = games + max(inst.met, default=0) + 2
        self.span = span

        def pair_cost(kind: int, count: int) -> int:
            return (
                w_repeat * max(0, count - 1)
                + (w_friend * count if kind & 1 else 0)
                + (w_country * count if kind & 2 else 0)
            )

        self.value = [pair_cost(k, c) for k in range(4) for c in range(span)]
        self.add = [pair_cost(k, c + 1) - pair_cost(k, c) for k in range(4) for c in range(span)]
        self.rem = [pair_cost(k, c) - pair_cost(k, c - 1) if c else 0 for k in range(4) for c in range(span)]
        self.base = [
            (inst.friend[i] | (inst.compatriot[i] << 1)) * span + inst.met[i] for i in range(n * n)
        ]

        # A player at 3-player tables more than 3 times must repeat a position: a cheap proxy
        # while positions are not tracked exactly.
        proxy = inst.distinct_positions and has_threes and not track_positions
        top = games + max(inst.history_threes, default=0) + 2
        unary = [
            (w_spread * k**3 if has_threes else 0) + (w_position * max(0, k - 3) if proxy else 0)
            for k in range(top + 1)
        ]
        self.unary = unary
        self.enter_three = [unary[k + 1] - unary[k] for k in range(top)]
        self.leave_three = [0] + [unary[k - 1] - unary[k] for k in range(1, top)]

        self.history_use = [0] * (n * POSITIONS)
        for p, positions in enumerate(inst.history_positions):
            for position in positions:
                if position <= POSITIONS:
                    self.history_use[p * POSITIONS + position - 1] += 1
        # Repeats already in the played games stay; with more games than positions some
        # position must repeat (only 3 positions exist when every table has 3 players).
        self.position_bound = 0
        for p, k in enumerate(played):
            past = self.history_use[p * POSITIONS:(p + 1) * POSITIONS]
            widest = max([*sizes, *(i + 1 for i, u in enumerate(past) if u)])
            if track_positions:
                self.position_bound += max(k - widest, sum(max(0, u - 1) for u in past))
        self.lower_bound = self._lower_bound(inst) + w_position * self.position_bound

    def _lower_bound(self, inst: Instance) -> int:
        """A pair-and-table cost no schedule can beat, so the search can stop when it gets there."""
        n, games = self.n, self.games
        base, value = self.base, self.value
        constant = sum(value[base[i * n + j]] for i in range(n) for j in range(i + 1, n))
        smallest = min(self.sizes) - 1
        friend_need, repeat_excess = [], 0
        history_repeats = history_friends = 0
        for p in range(n):
            row = p * n
            friends = sum(inst.friend[row:row + n])
            friend_need.append(games * max(0, smallest - (n - 1 - friends)))
            repeat_excess += max(0, sum(inst.met[row:row + n]) + games * smallest - (n - 1))
            for q in range(p + 1, n):
                met = inst.met[row + q]
                history_repeats += max(0, met - 1)
                history_friends += met if inst.friend[row + q] else 0
        friends_new = max(max(friend_need, default=0), (sum(friend_need) + 1) // 2)
        # A table of s players meets the T tables of an earlier game: when s > T some of them
        # sat together there (pigeonhole), and each such meeting is a repeat.
        count = self.tables
        overlap = 0
        for s in self.sizes:
            most, crowded = divmod(s, count)
            overlap += crowded * (most + 1) * most // 2 + (count - crowded) * most * (most - 1) // 2
        repeats = max(history_repeats, (repeat_excess + 1) // 2, (games - 1) * overlap)
        pairs = max(constant, self.w_friend * (history_friends + friends_new) + self.w_repeat * repeats)
        # 3-player seats go to the least loaded players first: optimal for a convex cost.
        loads = list(inst.history_threes)
        tables = sum(self.unary[k] for k in loads)
        taken = [0] * n
        for _ in range(games * self.sizes.count(3) * 3):
            p = min((q for q in range(n) if taken[q] < games), key=lambda q: loads[q])
            tables += self.enter_three[loads[p]]
            loads[p] += 1
            taken[p] += 1
        return pairs + tables


class State:
    """An assignment with its pair codes, 3-table loads, position use, conflicts and cost."""

    def __init__(self, model: Model, inst: Instance, assignment: Assignment) -> None:
        n = model.n
        self.model = model
        self.inst = inst
        self.tables = [[list(table) for table in game] for game in assignment]
        self.where = [[0] * n for _ in assignment]
        code = list(model.base)
        threes = list(inst.history_threes)
        use = list(model.history_use)
        for g, game in enumerate(self.tables):
            where = self.where[g]
            for t, table in enumerate(game):
                for seat, p in enumerate(table):
                    where[p] = t
                    threes[p] += len(table) == 3
                    use[p * POSITIONS + seat] += 1
                for i, p in enumerate(table):
                    for q in table[i + 1:]:
                        code[p * n + q] += 1
                        code[q * n + p] += 1
        self.code, self.threes, self.use = code, threes, use
        self.conflicts: list[int] = []
        self.slot = [-1] * (n * n)
        value, base, rem = model.value, model.base, model.rem
        cost = 0
        for p in range(n):
            for q in range(p + 1, n):
                i = p * n + q
                cost += value[code[i]]
                if code[i] > base[i] and rem[code[i]] > 0:
                    self.slot[i] = len(self.conflicts)
                    self.conflicts.append(i)
        cost += sum(model.unary[k] for k in threes)
        self.excess = sum(max(0, k - 1) for k in use) if model.track else 0
        self.cost = cost + model.w_position * self.excess

    def _bump(self, p: int, q: int, step: int) -> None:
        model, code, n = self.model, self.code, self.model.n
        i, j = p * n + q, q * n + p
        old = code[i]
        new = old + step
        code[i] = code[j] = new
        self.cost += model.value[new] - model.value[old]
        k = i if p < q else j
        conflict = new > model.base[k] and model.rem[new] > 0
        slot = self.slot
        if conflict and slot[k] < 0:
            slot[k] = len(self.conflicts)
            self.conflicts.append(k)
        elif not conflict and slot[k] >= 0:
            last = self.conflicts.pop()
            if last != k:
                self.conflicts[slot[k]] = last
                slot[last] = slot[k]
            slot[k] = -1

    def swap(self, g: int, a: int, b: int) -> None:
        """a and b exchange seats in game g (each takes the other's table and position)."""
        model = self.model
        where, tables = self.where[g], self.tables[g]
        ta, tb = where[a], where[b]
        at, bt = tables[ta], tables[tb]
        sa, sb = at.index(a), bt.index(b)
        if ta != tb:
            for x in at:
                if x != a:
                    self._bump(a, x, -1)
                    self._bump(b, x, 1)
            for y in bt:
                if y != b:
                    self._bump(b, y, -1)
                    self._bump(a, y, 1)
            where[a], where[b] = tb, ta
            size_a, size_b = model.sizes[ta], model.sizes[tb]
            if size_a != size_b:
                threes, unary = self.threes, model.unary
                step = 1 if size_b == 3 else -1
                self.cost += unary[threes[a] + step] - unary[threes[a]]
                threes[a] += step
                self.cost += unary[threes[b] - step] - unary[threes[b]]
                threes[b] -= step
        at[sa], bt[sb] = b, a
        if model.track and sa != sb:
            use = self.use
            before = self.excess
            for p, old, new in ((a, sa, sb), (b, sb, sa)):
                row = p * POSITIONS
                self.excess += (use[row + new] > 0) - (use[row + old] > 1)
                use[row + old] -= 1
                use[row + new] += 1
            self.cost += model.w_position * (self.excess - before)

    def snapshot(self) -> Assignment:
        return [[list(table) for table in game] for game in self.tables]
