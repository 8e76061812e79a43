"""Table search: who shares a table in each planned game, and (when asked) in which position.

The cost of a seating comes from `cost` (one integer, priorities folded in by weight). The search starts from a greedy
construction (`greedy`: most constrained player first) or an algebraic design when one fits (`designs`,
`translation`), then runs a conflict-directed tabu search over swaps of two players of one game,
in the manner of Dotú & Van Hentenryck's social golfer search: every swap touching a conflicting
pair is evaluated and the best non-tabu one is taken, even uphill. When that first search stays above its lower
bound, small stages also start from a rotational schedule (`designs.rotational_design`).
Positions are a list index: a swap moves each player into the other's seat, and with positions
tracked a swap may stay within one table.

Work grows with the seats, not with the square of the players: pair data is sparse above
`cost.DENSE_PLAYERS`, and beyond `TABLES_PER_MOVE` tables a player placed or moved looks at a
seeded sample of tables. Everything random comes from one seeded generator and budgets count
work (evaluated swaps), never seconds, so a seed gives the same schedule on a busy machine as on
a quiet one. Once every priority but the spread of 3-player seats is at its proven bound, a run
also stops when it has gone as long without a better seating as it took to find its best one
(and at least `STALL_WORK`): the spread's bound is often out of reach (13 players × 4 games
cannot spread the 3-player seats evenly without a repeat), and the rest of the budget would be
spent on the lowest priority for nothing. The first phase, which keeps the 3-player seats on
their even rotation, settles the same way (with more patience) whatever is left, and hands
what it did not spend to the next. `effort` scales the budgets and the patience alike. The
clock is only a `TimeGuard` against an overloaded machine, and a fired guard is reported.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from .cost import POSITIONS, Assignment, Instance, Model, SparseCodes, State
from .designs import ROTATION_STEPS, affine_design, rotational_design
from .greedy import TABLES_PER_MOVE, greedy
from .positions import colour_positions
from .translation import translation_design

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
# Default budget in candidate swaps evaluated: about a second of pure Python, more on stages
# with more seats to plan; the position repair after it gets half as much.
DEFAULT_BUDGET = 2_000_000
SWAPS_PER_SEAT = 200
# With only the 3-player seat spread left above its bound, a run stops after this much work
# without a new best (or as much as it took to find its best, if more); the first phase, which
# keeps the 3-player seats on their even rotation, after KEEP_STALL times as much.
STALL_WORK = 15_000
KEEP_STALL = 4
# Tabu lists up to this many (game, player, table, seat) entries are flat lists, larger ones sparse.
DENSE_TABU = 1 << 21
# Up to this many players a search that stays above its bound also tries a rotational
# schedule (designs.rotational_design: a few seconds at most at this size).
ROTATION_PLAYERS = 64


class TimeGuard:
    """The wall-clock last resort: past `seconds` every search phase stops where it is.

    Work budgets decide a result, so a seed gives the same schedule anywhere; only a machine so
    loaded that the budget takes longer than the guard is stopped by the clock, and then `fired`
    says so, because that result depends on the machine's speed.
    """

    def __init__(self, seconds: float) -> None:
        self.deadline = time.perf_counter() + seconds
        self.fired = False

    def expired(self) -> bool:
        if not self.fired and time.perf_counter() > self.deadline:
            self.fired = True
        return self.fired


def default_budget(inst: Instance) -> int:
    """Evaluated swaps when the caller names no budget: grows with the seats to plan."""
    return max(DEFAULT_BUDGET, SWAPS_PER_SEAT * inst.n * inst.games)


def search_tables(
    inst: Instance, *, budget: int | None, guard: TimeGuard, effort: float = 1.0,
    progress: Callable[[float], None] | None = None,
) -> tuple[Assignment, Model]:
    """Best seating found within the budget (times `effort`), over a few restarts from fresh
    constructions, and the cost model it was measured with (its lower bound tells whether it is
    proven best).

    Positions are searched with the tables only when earlier games or 3-player tables constrain
    them; otherwise a colouring of the final tables is perfect for up to 4 games (see
    seating_positions) and tracking them here would only blur the lower priorities.
    """
    track = inst.distinct_positions and (any(inst.history_positions) or 3 in inst.sizes)
    model = Model(inst, track_positions=track)
    rng = random.Random(inst.seed)
    total = round((default_budget(inst) if budget is None else budget) * effort)
    stall = round(STALL_WORK * effort)
    best: State | None = None
    done = 0
    heard = 0.0

    def report(work: int) -> None:
        nonlocal heard
        share = min(1.0, (done + work) / max(1, total))
        if progress is not None and share > heard:  # a step may overrun its phase's budget
            heard = share
            progress(share)

    for attempt in range(RESTARTS):
        share = total // RESTARTS
        starts = [greedy(model, inst, rng)]
        fresh = not any(inst.history_positions) and set(model.sizes) == {4}
        if attempt == 0 and fresh:
            design = affine_design(model.n, model.games, rng)
            if design is None:
                design = translation_design(model.n, model.games, rng)
            if design is not None:
                starts.append(design)
        if (attempt == 1 and fresh and model.n <= ROTATION_PLAYERS and best is not None
                and best.cost - model.lower_bound >= model.w_repeat):
            # The first search left repeats above the bound: try a schedule with a cyclic symmetry.
            design = rotational_design(model.n, model.games, rng, steps=max(1, round(ROTATION_STEPS * effort)))
            if design is not None:
                starts.append(design)
        if track:
            starts = [colour_positions(inst, start, rng) for start in starts]
        state = min((State(model, inst, start) for start in starts), key=lambda s: s.cost)
        if model.has_threes:
            # First keep the construction's even rotation of 3-player seats and look for the
            # best tables within it; only then let players trade table sizes too.
            # What that phase leaves unspent when it settles early goes to the next one.
            kept, used = _tabu(state, rng, int(share * KEEP_SIZES_SHARE), stall, guard, keep_sizes=True,
                               report=report)
            state = State(model, inst, kept)
            share -= used
            done += used
        if state.cost > model.lower_bound:
            state = State(model, inst, _tabu(state, rng, share, stall, guard, report=report)[0])
        done += share
        if best is None or state.cost < best.cost:
            best = state
        report(0)
        if best.cost <= model.lower_bound or guard.expired():
            break
        if model.tables > TABLES_PER_MOVE and not best.conflicts:
            # A large stage with no pair conflict left: another construction lands in the same
            # place, and what is left (play order, 3-player seats) is the position repair's.
            break
    assert best is not None  # RESTARTS > 0
    return best.snapshot(), model


def refine_positions(
    inst: Instance, searched: Assignment, recoloured: Assignment, *, budget: int | None, guard: TimeGuard,
    effort: float = 1.0,
) -> Assignment:
    """The better of the searched positions and a fresh colouring of its tables, repaired further
    when positions still repeat (never at the cost of a higher priority); budgets as in `search_tables`."""
    model = Model(inst, track_positions=True)
    state = min((State(model, inst, s) for s in (searched, recoloured)), key=lambda s: s.cost)
    if state.excess <= model.position_bound:
        return state.snapshot()
    rng = random.Random(f"refine:{inst.seed}")
    budget = round((default_budget(inst) // 2 if budget is None else budget) * effort)
    return _tabu(state, rng, budget, round(STALL_WORK * effort), guard, positions_only=True)[0]


def _clashing_seat(state: State, rng: random.Random) -> tuple[int, int] | None:
    """A (game, player) whose position repeats, at random."""
    if not state.clashing:
        return None
    clashing = sorted(state.clashing)
    p = clashing[rng.randrange(len(clashing))]
    row, use = p * POSITIONS, state.use
    games = [g for g in range(state.model.games) if use[row + state.tables[g][state.where[g][p]].index(p)] > 1]
    return games[rng.randrange(len(games))], p


def _tabu(
    state: State,
    rng: random.Random,
    budget: int,
    stall: int,
    guard: TimeGuard,
    *,
    positions_only: bool = False,
    keep_sizes: bool = False,
    report: Callable[[int], None] | None = None,
) -> tuple[Assignment, int]:
    """Conflict-directed tabu search over seat swaps of two players in one game: the best seating
    found and the work spent.

    `positions_only` only reorders players within their tables, never uphill (a walk along
    chains of equal cost), and stops as soon as positions no longer repeat; `keep_sizes` only
    swaps players between tables of the same size. On large stages a mover tries a sample of
    the tables (its own included), so a step costs the same at any size. A run ends when its
    budget is spent, at the lower bound, or after `stall` work (or as much as its best took, if
    more) without a new best once only the 3-player seat spread is above its bound; with
    `keep_sizes` (a first phase that only prepares the next) after `KEEP_STALL` times that at
    any cost. `report` hears the work done now and then.
    """
    model = state.model
    n, count, sizes, games, track = model.n, model.tables, model.sizes, model.games, model.track
    add, rem, w_position, w_country = model.add, model.rem, model.w_position, model.w_country
    enter_three, leave_three = model.enter_three, model.leave_three
    country = state.inst.country
    code, threes, use, conflicts = state.code, state.threes, state.use, state.conflicts
    lower, position_bound, above_spread = model.lower_bound, model.position_bound, model.above_spread
    best_cost, best, best_excess = state.cost, state.snapshot(), state.excess
    seats = POSITIONS if track else 1
    sampled = count > TABLES_PER_MOVE
    # With sampled tables the best move of one conflict is as good as it gets: a step stays cheap.
    pairs_per_step = 1 if sampled else PAIRS_PER_STEP
    everywhere = range(count)
    tabu_size = games * n * count * seats
    tabu: list[int] | SparseCodes = [0] * tabu_size if tabu_size <= DENSE_TABU else SparseCodes()
    patience = stall * KEEP_STALL if keep_sizes else stall
    work = it = since = best_at = 0
    while work < budget and best_cost > lower and not (positions_only and best_excess <= position_bound):
        if (keep_sizes or best_cost - lower < above_spread) and work - best_at > max(patience, best_at):
            break  # settled: nothing better for long, where only the spread (or a first phase) is at stake
        it += 1
        work += 1
        if it & 255 == 0:
            if guard.expired():
                break
            if report is not None and it & 4095 == 0:
                report(work)
        groups: dict[int, set[int]] = {}
        fix_positions = track and state.excess > position_bound and (not conflicts or rng.random() < 0.5)
        if fix_positions:
            found = _clashing_seat(state, rng)
            if found is not None:
                groups[found[0]] = {found[1]}
        elif conflicts:
            picked = conflicts if len(conflicts) <= pairs_per_step else rng.sample(conflicts, pairs_per_step)
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
            own: dict[int, int] = {}
            for a in sorted(movers):
                ta = where[a]
                at = tables[ta]
                seat_a = at.index(a) if track else 0
                rest = [x for x in at if x != a]
                row_a, use_a, country_a = a * n, a * POSITIONS, country[a]
                leave_a = 0
                for x in rest:
                    leave_a += rem[code[row_a + x]]
                    if w_country and country[x] == country_a:
                        leave_a += w_country
                size_a = sizes[ta]
                if positions_only:
                    candidates: list[int] | range = [ta]  # the tables are final: only play orders change
                elif sampled:
                    candidates = rng.sample(everywhere, TABLES_PER_MOVE)
                    if track:
                        candidates.append(ta)
                else:
                    candidates = everywhere
                for tb in candidates:
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
                            if w_country and country[y] == country_a:
                                join += w_country
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
                            row_b, country_b = b * n, country[b]
                            own_b = own.get(b)
                            if own_b is None:
                                own_b = 0
                                for y in bt:
                                    if y != b:
                                        own_b += rem[code[row_b + y]]
                                        if w_country and country[y] == country_b:
                                            own_b += w_country
                                own[b] = own_b
                            d = join - add[code[row_a + b]] - leave_a - own_b + unary_a
                            if w_country and country_b == country_a:
                                d -= w_country
                            for x in rest:
                                d += add[code[row_b + x]]
                                if w_country and country[x] == country_b:
                                    d += w_country
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
                        if (best_delta is not None and d > best_delta) or (positions_only and d > 0):
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
            since, best_at = 0, work
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
    return best, work
