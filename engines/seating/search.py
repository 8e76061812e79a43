"""Table search: who shares a table in each planned game, and (when asked) in which position.

The cost of a seating comes from `cost` (one integer, priorities folded in by weight). The search starts from a greedy
construction (most constrained player first) or an algebraic design when one fits, then runs a
conflict-directed tabu search over swaps of two players of one game, in the manner of Dotú &
Van Hentenryck's social golfer search: every swap touching a conflicting pair is evaluated and
the best non-tabu one is taken, even uphill. Positions are a list index: a swap moves each
player into the other's seat, and with positions tracked a swap may stay within one table.
Everything random comes from one seeded generator and budgets count evaluated swaps, so a seed
always gives the same schedule.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from .cost import POSITIONS, Assignment, Instance, Model, State
from .designs import affine_design
from .positions import colour_positions

# Conflicting pairs examined per step: all of them when few (the best move), a sample when many
# so that a step stays cheap on large stages.
PAIRS_PER_STEP = 8
# A player may not return to the seat it just left for 2-5 steps.
TENURE_MIN, TENURE_SPREAD = 2, 4
# Steps without a new best (per player) before going back to the best seating and kicking
# it with a few random swaps: tabu search alone tends to circle on the last conflicts.
PATIENCE_PER_PLAYER = 30
KICKS = 3
# Share of the budget spent first with each game's 3-player seats kept on the construction's
# even rotation.
KEEP_SIZES_SHARE = 0.5
# Independent constructions the budget is shared between (later ones only run when the earlier
# ones stopped above the lower bound).
RESTARTS = 4
# Default budget in candidate swaps evaluated: about a second of pure Python; the position
# repair after it gets half as much.
DEFAULT_BUDGET = 2_000_000


def _greedy(model: Model, inst: Instance, rng: random.Random) -> Assignment:
    """Game by game, most constrained player first, each to its cheapest table with room.

    The 3-player seats of a game go to the players who have had the fewest so far.
    """
    n, sizes, count = model.n, model.sizes, model.tables
    add, enter_three = model.add, model.enter_three
    code = list(model.base)
    threes = list(inst.history_threes)
    three_seats = 3 * sizes.count(3)
    assignment: Assignment = []
    for _ in range(model.games):
        tie = list(range(n))
        rng.shuffle(tie)
        at_three = set(sorted(range(n), key=lambda p: (threes[p], tie[p]))[:three_seats])
        hardness = [sum(1 for q in range(n) if add[code[p * n + q]] > 0) for p in range(n)]
        tables: list[list[int]] = [[] for _ in range(count)]
        for p in sorted(range(n), key=lambda p: (-hardness[p], tie[p])):
            row = p * n
            start = rng.randrange(count)
            best_table, best_cost = -1, 0
            for step in range(count):
                t = (start + step) % count
                table = tables[t]
                if len(table) == sizes[t] or (sizes[t] == 3) != (p in at_three):
                    continue
                cost = enter_three[threes[p]] if sizes[t] == 3 else 0
                for q in table:
                    cost += add[code[row + q]]
                if best_table < 0 or cost < best_cost:
                    best_table, best_cost = t, cost
            table = tables[best_table]
            for q in table:
                code[row + q] += 1
                code[q * n + p] += 1
            table.append(p)
            threes[p] += sizes[best_table] == 3
        assignment.append(tables)
    return assignment


def search_tables(
    inst: Instance, *, budget: int | None, deadline: float, progress: Callable[[float], None] | None = None,
) -> Assignment:
    """Best seating found within the budget, over a few restarts from fresh constructions.

    Positions are searched with the tables only when earlier games or 3-player tables constrain
    them; otherwise a colouring of the final tables is perfect for up to 4 games (see
    seating_positions) and tracking them here would only blur the lower priorities.
    """
    track = inst.distinct_positions and (any(inst.history_positions) or 3 in inst.sizes)
    model = Model(inst, track_positions=track)
    rng = random.Random(inst.seed)
    total = DEFAULT_BUDGET if budget is None else budget
    best: State | None = None
    for attempt in range(RESTARTS):
        share = total // RESTARTS
        starts = [_greedy(model, inst, rng)]
        if attempt == 0 and not any(inst.history_positions) and set(model.sizes) == {4}:
            design = affine_design(model.n, model.games, rng)
            if design is not None:
                starts.append(design)
        if track:
            starts = [colour_positions(inst, start, rng) for start in starts]
        state = min((State(model, inst, start) for start in starts), key=lambda s: s.cost)
        if model.has_threes:
            # First keep the construction's even rotation of 3-player seats and look for the
            # best tables within it; only then let players trade table sizes too.
            kept = _tabu(state, rng, int(share * KEEP_SIZES_SHARE), deadline, keep_sizes=True)
            state = State(model, inst, kept)
            share -= int(share * KEEP_SIZES_SHARE)
        if state.cost > model.lower_bound:
            state = State(model, inst, _tabu(state, rng, share, deadline))
        if best is None or state.cost < best.cost:
            best = state
        if progress is not None:
            progress((attempt + 1) / RESTARTS)
        if best.cost <= model.lower_bound or time.perf_counter() > deadline:
            break
    return best.snapshot()


def refine_positions(
    inst: Instance, searched: Assignment, recoloured: Assignment, *, budget: int | None, deadline: float
) -> Assignment:
    """The better of the searched positions and a fresh colouring of its tables, repaired further
    when positions still repeat (never at the cost of a higher priority)."""
    model = Model(inst, track_positions=True)
    state = min((State(model, inst, s) for s in (searched, recoloured)), key=lambda s: s.cost)
    if state.excess <= model.position_bound:
        return state.snapshot()
    rng = random.Random(f"refine:{inst.seed}")
    budget = DEFAULT_BUDGET // 2 if budget is None else budget
    return _tabu(state, rng, budget, deadline, positions_only=True)


def _tabu(
    state: State,
    rng: random.Random,
    budget: int,
    deadline: float,
    *,
    positions_only: bool = False,
    keep_sizes: bool = False,
) -> Assignment:
    """Conflict-directed tabu search over seat swaps of two players in one game.

    `positions_only` stops as soon as positions no longer repeat (the rest is already
    optimised); `keep_sizes` only swaps players between tables of the same size.
    """
    model = state.model
    n, count, sizes, games, track = model.n, model.tables, model.sizes, model.games, model.track
    add, rem, w_position = model.add, model.rem, model.w_position
    enter_three, leave_three = model.enter_three, model.leave_three
    code, threes, use, conflicts = state.code, state.threes, state.use, state.conflicts
    lower, position_bound = model.lower_bound, model.position_bound
    best_cost, best, best_excess = state.cost, state.snapshot(), state.excess
    seats = POSITIONS if track else 1
    tabu = [0] * (games * n * count * seats)
    own = [0] * n
    work = it = since = 0
    while work < budget and best_cost > lower and not (positions_only and best_excess <= position_bound):
        it += 1
        work += 1
        if it & 255 == 0 and time.perf_counter() > deadline:
            break
        groups: dict[int, set[int]] = {}
        fix_positions = track and state.excess > position_bound and (not conflicts or rng.random() < 0.5)
        if fix_positions:
            for p in rng.sample(range(n), n):
                row = p * POSITIONS
                clashing = [
                    g for g in range(games)
                    if use[row + state.tables[g][state.where[g][p]].index(p)] > 1
                ]
                if clashing:
                    groups[clashing[rng.randrange(len(clashing))]] = {p}
                    break
        elif conflicts:
            picked = conflicts if len(conflicts) <= PAIRS_PER_STEP else rng.sample(conflicts, PAIRS_PER_STEP)
            for k in picked:
                p, q = divmod(k, n)
                for g in range(games):
                    if state.where[g][p] == state.where[g][q]:
                        groups.setdefault(g, set()).update((p, q))
        elif model.has_threes and not keep_sizes:
            g = rng.randrange(games)
            groups[g] = {p for t, table in enumerate(state.tables[g]) if sizes[t] == 3 for p in table}
        else:
            groups[rng.randrange(games)] = {rng.randrange(n)}
        cost = state.cost
        best_delta, moves = None, []
        for g, movers in groups.items():
            where, tables = state.where[g], state.tables[g]
            for table in tables:
                for b in table:
                    s, row = 0, b * n
                    for y in table:
                        if y != b:
                            s += rem[code[row + y]]
                    own[b] = s
            for a in sorted(movers):
                ta = where[a]
                at = tables[ta]
                seat_a = at.index(a) if track else 0
                rest = [x for x in at if x != a]
                row_a, use_a = a * n, a * POSITIONS
                leave_a = own[a]
                size_a = sizes[ta]
                for tb in range(count):
                    if keep_sizes and sizes[tb] != size_a:
                        continue
                    bt = tables[tb]
                    work += len(bt)
                    if tb == ta:
                        if not track:
                            continue
                        join = None
                    else:
                        join = 0
                        for y in bt:
                            join += add[code[row_a + y]]
                    size_b = sizes[tb]
                    if size_a == size_b:
                        unary_a = 0
                    elif size_b == 3:
                        unary_a = enter_three[threes[a]]
                    else:
                        unary_a = leave_three[threes[a]]
                    for seat_b, b in enumerate(bt):
                        if b == a:
                            continue
                        if join is None:
                            d = 0
                        else:
                            row_b = b * n
                            d = join - add[code[row_a + b]] - leave_a - own[b] + unary_a
                            for x in rest:
                                d += add[code[row_b + x]]
                            if size_a != size_b:
                                d += leave_three[threes[b]] if size_b == 3 else enter_three[threes[b]]
                        if track:
                            if seat_a != seat_b:
                                use_b = b * POSITIONS
                                d += w_position * (
                                    (use[use_a + seat_b] > 0) - (use[use_a + seat_a] > 1)
                                    + (use[use_b + seat_a] > 0) - (use[use_b + seat_b] > 1)
                                )
                            elif join is None:
                                continue
                        else:
                            seat_b = 0
                        if best_delta is not None and d > best_delta:
                            continue
                        if cost + d >= best_cost and (
                            tabu[((g * n + a) * count + tb) * seats + seat_b] > it
                            or tabu[((g * n + b) * count + ta) * seats + seat_a] > it
                        ):
                            continue
                        if best_delta is None or d < best_delta:
                            best_delta, moves = d, [(g, a, b)]
                        else:
                            moves.append((g, a, b))
        if not moves:
            continue
        g, a, b = moves[rng.randrange(len(moves))]
        where, tables = state.where[g], state.tables[g]
        ta, tb = where[a], where[b]
        seat_a = tables[ta].index(a) if track else 0
        seat_b = tables[tb].index(b) if track else 0
        state.swap(g, a, b)
        tenure = TENURE_MIN + rng.randrange(TENURE_SPREAD)
        tabu[((g * n + a) * count + ta) * seats + seat_a] = it + tenure
        tabu[((g * n + b) * count + tb) * seats + seat_b] = it + tenure
        if state.cost < best_cost:
            best_cost, best, best_excess = state.cost, state.snapshot(), state.excess
            since = 0
        else:
            since += 1
            if since >= PATIENCE_PER_PLAYER * n:
                since = 0
                state = State(model, state.inst, best)
                code, threes, use, conflicts = state.code, state.threes, state.use, state.conflicts
                for _ in range(KICKS):
                    g = rng.randrange(games)
                    a, b = rng.randrange(n), rng.randrange(n)
                    wg = state.where[g]
                    if wg[a] != wg[b] and not (keep_sizes and sizes[wg[a]] != sizes[wg[b]]):
                        state.swap(g, a, b)
    return best
