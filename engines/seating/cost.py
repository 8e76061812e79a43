"""The search's cost model: the problem in integer form, its weights and the incremental state of one seating.

One lexicographic objective is folded into a single integer cost whose weights make a higher
priority always outweigh everything below it:

    friends at one table > repeat pairings > repeated positions (cwc) > compatriots (cwc)
    > uneven share of 3-player tables.

Pair data is sparse: a dict keyed p*n+q (both orders) holds a "code" (kind × meetings) only for
pairs that are declared friends or have met, so memory and set-up grow with the seats, not with
the square of the players. Compatriots need no pair table at all: a country id per player is
compared at the table. A candidate swap costs a dozen look-ups and no allocation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

Assignment = list[list[list[int]]]  # games → tables → player ids in seat (position) order

POSITIONS = 4
# Up to this many players the pair codes of a seating sit in a flat n×n list (the fastest
# look-up, 2 MB at most); above it in a dict holding only the pairs that met or are friends.
DENSE_PLAYERS = 512


class SparseCodes(dict[int, int]):
    """Pair codes of a large stage: a pair never seen together reads as 0 and takes no room."""

    def __missing__(self, key: int) -> int:
        return 0


@dataclass(frozen=True)
class Instance:
    """The problem in integer form: players are 0..n-1, pair keys p*n+q are stored in both orders.

    `country` gives each player a country id; a player without one (or every player, when the
    rules do not ask for country spread) has an id of their own, so equal ids mean compatriots.
    """

    n: int
    games: int
    sizes: tuple[int, ...]
    friends: frozenset[int]
    country: list[int]
    met: dict[int, int]
    history_positions: list[list[int]]
    history_threes: list[int]
    distinct_positions: bool
    seed: int


def forced_pairs(members: int, tables: int) -> int:
    """Pairs among `members` players that share a table however they are spread over `tables`
    tables (pigeonhole: at best as evenly as possible)."""
    most, crowded = divmod(members, tables)
    return crowded * (most + 1) * most // 2 + (tables - crowded) * most * (most - 1) // 2


def country_lower_bound(country: list[int], tables: int) -> int:
    """Same-country tablemates one game cannot avoid: a country larger than the number of tables
    must double up."""
    return sum(forced_pairs(members, tables) for members in Counter(country).values())


def forced_position_repeats(history: list[list[int]], games: int, sizes: Sequence[int]) -> int:
    """Position repeats no seating of `games` more games at tables of `sizes` can avoid.

    A player's repeats are their seats minus the distinct positions they hold. Repeats in the
    played games stay, and a player can gain at most one new position per game. Over all
    players a position can be gained no more often than it has planned seats: when a
    re-seat leaves fewer 4th seats than players still missing position 4, some of them
    must repeat. The most new positions within both limits is a flow from players to
    positions, worth its smallest cut; with 4 positions there are 16 cuts to try.
    """
    seats = [games * sum(1 for size in sizes if size > c) for c in range(POSITIONS)]
    total = 0
    needs: Counter[tuple[int, int]] = Counter()  # (new positions at most, mask of positions not held)
    for past in history:
        held = set(past)
        missing = sum(1 << c for c in range(POSITIONS) if c + 1 not in held)
        total += len(past) + games - len(held)
        needs[min(games, missing.bit_count()), missing] += 1
    gained = min(
        sum(seats[c] for c in range(POSITIONS) if cut >> c & 1)
        + sum(count * min(most, (missing & ~cut).bit_count()) for (most, missing), count in needs.items())
        for cut in range(1 << POSITIONS)
    )
    return total - gained


class Model:
    """Weights, cost tables and lower bound; `track_positions` adds exact position repeats."""

    def __init__(self, inst: Instance, track_positions: bool) -> None:
        n, games, sizes = inst.n, inst.games, inst.sizes
        self.n, self.games, self.sizes, self.tables = n, games, sizes, len(sizes)
        self.track = track_positions
        has_threes = 3 in sizes
        self.has_threes = has_threes
        planned_slots = games * sum(s * (s - 1) // 2 for s in sizes)
        pair_slots = planned_slots + sum(inst.met.values()) // 2
        played = [games + len(h) for h in inst.history_positions]
        most_threes = [games + h for h in inst.history_threes]
        spread_max = sum(k**3 for k in most_threes) if has_threes else 0
        positions_on = inst.distinct_positions and (track_positions or has_threes)
        positions_max = sum(played) if positions_on else 0
        compatriots_on = len(set(inst.country)) < n
        w_spread = 1
        w_country = w_spread * (spread_max + 1)
        w_position = w_country * ((planned_slots if compatriots_on else 0) + 1)
        w_repeat = w_position * (positions_max + 1)
        w_friend = w_repeat * (pair_slots + 1)
        self.w_friend, self.w_repeat, self.w_position = w_friend, w_repeat, w_position
        # Every priority above the spread of 3-player seats weighs at least this: a cost less than this
        # above the lower bound has every other priority at its bound.
        self.above_spread = w_country
        # Compatriots cost per planned game they share a table in (played games are past).
        self.w_country = w_country if compatriots_on else 0

        span = games + max(inst.met.values(), default=0) + 2
        self.span = span

        def pair_cost(kind: int, count: int) -> int:
            return w_repeat * max(0, count - 1) + (w_friend * count if kind else 0)

        self.value = [pair_cost(k, c) for k in range(2) for c in range(span)]
        self.add = [pair_cost(k, c + 1) - pair_cost(k, c) for k in range(2) for c in range(span)]
        self.rem = [pair_cost(k, c) - pair_cost(k, c - 1) if c else 0 for k in range(2) for c in range(span)]
        base = dict(inst.met)
        for key in inst.friends:
            base[key] = span + inst.met.get(key, 0)
        self.base = base

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
        self.position_bound = forced_position_repeats(inst.history_positions, games, sizes) if track_positions else 0
        self.country_bound = games * country_lower_bound(inst.country, self.tables) if compatriots_on else 0
        self.lower_bound = (
            self._lower_bound(inst) + w_position * self.position_bound + self.w_country * self.country_bound
        )

    def _lower_bound(self, inst: Instance) -> int:
        """A pair-and-table cost no schedule can beat, so the search can stop when it gets there."""
        n, games = self.n, self.games
        value = self.value
        constant = sum(value[c] for key, c in self.base.items() if key // n < key % n)
        smallest = min(self.sizes) - 1
        friends = [0] * n
        for key in inst.friends:
            friends[key // n] += 1
        met_slots = [0] * n
        history_repeats = history_friends = 0
        for key, met in inst.met.items():
            p, q = divmod(key, n)
            met_slots[p] += met
            if p < q:
                history_repeats += max(0, met - 1)
                history_friends += met if key in inst.friends else 0
        friend_need = [games * max(0, smallest - (n - 1 - f)) for f in friends]
        repeat_excess = sum(max(0, m + games * smallest - (n - 1)) for m in met_slots)
        friends_new = max(max(friend_need, default=0), (sum(friend_need) + 1) // 2)
        repeats = max(history_repeats, (repeat_excess + 1) // 2, (games - 1) * self.overlap())
        self.repeat_bound = repeats
        pairs = max(constant, self.w_friend * (history_friends + friends_new) + self.w_repeat * repeats)
        # 3-player seats go to the least loaded players first: optimal for a convex cost.
        tables = sum(self.unary[k] for k in inst.history_threes)
        if self.has_threes:
            loads = sorted(inst.history_threes)
            for _ in range(games):
                seats = 3 * self.sizes.count(3)
                for p in range(seats):
                    tables += self.enter_three[loads[p]]
                    loads[p] += 1
                loads.sort()
        return pairs + tables

    def overlap(self) -> int:
        """Repeats between any two games: a table of s players meets the T tables of another
        game, and when s > T some of them sat together there (pigeonhole)."""
        return sum(forced_pairs(s, self.tables) for s in self.sizes)


class State:
    """An assignment with its pair codes, 3-table loads, position use, conflicts and cost."""

    def __init__(self, model: Model, inst: Instance, assignment: Assignment) -> None:
        n = model.n
        self.model = model
        self.inst = inst
        self.tables = [[list(table) for table in game] for game in assignment]
        self.where = [[0] * n for _ in assignment]
        country = inst.country
        touched = dict(model.base)  # every pair whose code is not 0, with its code
        get = touched.get
        threes = list(inst.history_threes)
        use = list(model.history_use)
        compatriots = 0
        for g, game in enumerate(self.tables):
            where = self.where[g]
            for t, table in enumerate(game):
                for seat, p in enumerate(table):
                    where[p] = t
                    threes[p] += len(table) == 3
                    use[p * POSITIONS + seat] += 1
                for i, p in enumerate(table):
                    for q in table[i + 1:]:
                        touched[p * n + q] = touched[q * n + p] = get(p * n + q, 0) + 1
                        compatriots += country[p] == country[q]
        if n <= DENSE_PLAYERS:
            code: list[int] | SparseCodes = [0] * (n * n)
            for key, c in touched.items():
                code[key] = c
        else:
            code = SparseCodes(touched)
        self.code, self.threes, self.use = code, threes, use
        self.conflicts: list[int] = []
        self.slot: dict[int, int] = {}
        value = model.value
        cost = 0
        for key, c in touched.items():
            p, q = divmod(key, n)
            if p < q:
                cost += value[c]
                if self._conflicting(key, p, q, c):
                    self.slot[key] = len(self.conflicts)
                    self.conflicts.append(key)
        cost += model.w_country * compatriots + sum(model.unary[k] for k in threes)
        self.excess = sum(max(0, k - 1) for k in use) if model.track else 0
        # Players who play some position twice (kept only while positions are tracked).
        self.clashing = (
            {p for p in range(n) if max(use[p * POSITIONS:(p + 1) * POSITIONS]) > 1} if model.track else set()
        )
        self.cost = cost + model.w_position * self.excess

    def _conflicting(self, key: int, p: int, q: int, code: int) -> bool:
        """The pair shares a table in a planned game and pays for it (friends, repeat, compatriots)."""
        model = self.model
        return code > model.base.get(key, 0) and (
            model.rem[code] > 0 or (model.w_country > 0 and self.inst.country[p] == self.inst.country[q])
        )

    def _bump(self, p: int, q: int, step: int) -> None:
        model, code, n = self.model, self.code, self.model.n
        i = p * n + q
        old = code[i]
        new = old + step
        code[i] = code[q * n + p] = new
        self.cost += model.value[new] - model.value[old]
        if self.inst.country[p] == self.inst.country[q]:
            self.cost += model.w_country * step
        k = i if p < q else q * n + p
        conflict = self._conflicting(k, min(p, q), max(p, q), new)
        slot = self.slot
        at = slot.get(k, -1)
        if conflict and at < 0:
            slot[k] = len(self.conflicts)
            self.conflicts.append(k)
        elif not conflict and at >= 0:
            last = self.conflicts.pop()
            if last != k:
                self.conflicts[at] = last
                slot[last] = at
            del slot[k]

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
                if max(use[row:row + POSITIONS]) > 1:
                    self.clashing.add(p)
                else:
                    self.clashing.discard(p)
            self.cost += model.w_position * (self.excess - before)

    def snapshot(self) -> Assignment:
        return [[list(table) for table in game] for game in self.tables]
