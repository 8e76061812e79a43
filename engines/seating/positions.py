"""Play-order positions at each table, once the tables are fixed: the exact part.

Giving every player distinct positions is edge-colouring the bipartite graph players × tables
(one edge per player and game) with the positions as colours: each table needs each of its
positions once, each player any position at most once. König's theorem says 4 colours always
suffice when tables have at most 4 players and a player has at most 4 games, and the
alternating-path (Kempe chain) algorithm finds such a colouring edge by edge. Positions played
in earlier games, 3-player tables (positions 1-3 only) and stages longer than 4 games can
defeat it; the seats left uncoloured are filled with the table's free positions, and the
joint search of `search.refine_positions` then removes the repeats.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .cost import Assignment, Instance

COLOURS = 4


def shuffle_positions(tables: Assignment, rng: random.Random) -> Assignment:
    """Play order when positions are no goal: seeded, otherwise arbitrary."""
    shuffled = [[list(table) for table in game] for game in tables]
    for game in shuffled:
        for table in game:
            rng.shuffle(table)
    return shuffled


def colour_positions(inst: Instance, tables: Assignment, rng: random.Random) -> Assignment:
    """Each table's players in play order, distinct positions per player wherever Kempe finds them."""
    colour = _kempe(inst, tables, rng)
    ordered = []
    for g, game in enumerate(tables):
        seated = []
        for table in game:
            taken = {colour[g][p] for p in table}
            free = iter(c for c in range(len(table)) if c not in taken)
            for p in table:
                if colour[g][p] < 0:
                    colour[g][p] = next(free)
            seated.append(sorted(table, key=lambda p: colour[g][p]))
        ordered.append(seated)
    return ordered


def _kempe(inst: Instance, tables: Assignment, rng: random.Random) -> list[list[int]]:
    """Colour (game, player) seats edge by edge; -1 marks a seat it could not colour."""
    n = inst.n
    games = len(tables)
    forbidden = [0] * n
    for p, played in enumerate(inst.history_positions):
        for position in played:
            if position <= COLOURS:
                forbidden[p] |= 1 << (position - 1)
    colour = [[-1] * n for _ in range(games)]
    at_player = [[-1] * COLOURS for _ in range(n)]  # colour -> game
    at_table: list[list[list[int]]] = [[[-1] * COLOURS for _ in game] for game in tables]  # colour -> player
    where = [[0] * n for _ in range(games)]
    for g, game in enumerate(tables):
        for t, table in enumerate(game):
            for p in table:
                where[g][p] = t

    def path_from(g: int, t: int, alpha: int, beta: int) -> list[tuple[int, int]] | None:
        """The alpha/beta chain leaving table (g, t) by its alpha seat, if swapping it is legal."""
        path: list[tuple[int, int]] = []
        on_table, want = True, alpha
        while True:
            if on_table:
                p = at_table[g][t][want]
                if p < 0:
                    return path if want < len(tables[g][t]) else None
            else:
                h = at_player[p][want]
                if h < 0:
                    return None if forbidden[p] >> want & 1 else path
                g, t = h, where[h][p]
            path.append((g, p))
            on_table = not on_table
            want = beta if want == alpha else alpha

    for g, game in enumerate(tables):
        for t, table in enumerate(game):
            size = len(table)
            seats = at_table[g][t]
            for p in table:
                free_p = [c for c in range(COLOURS) if at_player[p][c] < 0 and not forbidden[p] >> c & 1]
                free_t = [c for c in range(size) if seats[c] < 0]
                common = [c for c in free_p if c in free_t]
                chosen = common[rng.randrange(len(common))] if common else -1
                for alpha in free_p if chosen < 0 else ():
                    if alpha >= size:
                        continue
                    for beta in free_t:
                        path = path_from(g, t, alpha, beta)
                        if path is None:
                            continue
                        for h, q in path:
                            old = colour[h][q]
                            at_player[q][old] = -1
                            at_table[h][where[h][q]][old] = -1
                        for h, q in path:
                            new = beta if colour[h][q] == alpha else alpha
                            colour[h][q] = new
                            at_player[q][new] = h
                            at_table[h][where[h][q]][new] = q
                        chosen = alpha
                        break
                    if chosen >= 0:
                        break
                if chosen >= 0:
                    colour[g][p] = chosen
                    at_player[p][chosen] = g
                    seats[chosen] = p
    return colour
