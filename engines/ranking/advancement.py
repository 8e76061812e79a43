"""Who goes on: qualifiers, replacements, the world-championship classification, Lord of Catan's 16, and the
ties that must be drawn before a stage is seated by rank.

Pure functions over engine standings (docs/rules.md §1, §2, §4).
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from engines.metrics import PlayerRecord
from engines.ranking.engine import (
    Standing,
    TableResult,
    player_records,
    rank_records,
    score_table,
    tie_groups,
    ties_at_cutoff,
    validate,
)
from engines.rulesets import Ruleset, ruleset_for

SEMIFINALISTS = 16


class TieAtCutoff(ValueError):
    """Players share a rank across the places that advance: the referee must record a draw first."""

    def __init__(self, group: Sequence[Standing]):
        self.group = tuple(group)
        names = ", ".join(str(s.player) for s in self.group)
        super().__init__(f"{names} share rank {self.group[0].rank} across the cut-off: "
                         f"record a card draw (lots) to separate them.")


def _eligible(standings: Sequence[Standing], passed_over: Collection[Hashable]) -> list[Hashable]:
    return [s.player for s in standings if not s.disqualified and s.player not in passed_over]


def qualifiers(
    standings: Sequence[Standing], n: int, already_qualified: Collection[Hashable] = (),
) -> list[Hashable]:
    """The best `n` players who have not qualified yet (a player qualifies at most once per championship).

    Already-qualified and disqualified players are passed over and the place goes down the ranking.
    Raises TieAtCutoff when the last place is shared and no recorded draw decides it.
    """
    passed_over = set(already_qualified)
    for group in ties_at_cutoff(standings, n, passed_over=passed_over):
        raise TieAtCutoff(group)
    return seeded_field(standings, n, passed_over)


def seeded_field(standings: Sequence[Standing], n: int, passed_over: Collection[Hashable] = ()) -> list[Hashable]:
    """The best `n` players who can take part, best first, as the standings list them (ties unchecked)."""
    return _eligible(standings, set(passed_over))[:n]


@dataclass(frozen=True)
class SeatingTie:
    """A tie left after every tiebreaker, and what a drawing of lots would change in a stage seated by rank."""

    players: tuple[Hashable, ...]
    """The tied players who can take part, in the standings' order."""
    cutoff: int | None = None
    """The field's size, when the tie straddles it: some of them play the stage, some do not."""
    tables: bool = False
    """They would sit at different tables of the seed chart."""
    seeds: tuple[int, ...] = ()
    """Seeds sharing a table whose order of choice the tie decides (only where seeds choose, `Ruleset.seeds_choose`)."""
    replaces: Hashable | None = None
    """The semifinal winner who takes no further part and whose place at the final the tie decides."""

    @property
    def matters(self) -> bool:
        return self.cutoff is not None or self.tables or bool(self.seeds) or self.replaces is not None


def seating_ties(
    standings: Sequence[Standing], ranked: Sequence[Hashable], tables: Sequence[Sequence[Hashable]], *,
    passed_over: Collection[Hashable] = (), cut: bool, order_of_choice: bool,
) -> list[SeatingTie]:
    """The ties that change a stage seated by rank, best first; the stage waits for their draws.

    `ranked` is the stage's field as the standings order it now (seed 1 first) and `tables` its tables by
    the chart. With `cut`, the field is the top of the standings and a tie straddling it (`ties_at_cutoff`,
    as for qualification) decides who plays; otherwise (the semifinal winners) players outside the field
    are not rivals. A tie inside the field matters when its players would sit at different tables, or at
    one table where players choose chair, colour and play order in order of rank (`order_of_choice`, the
    ruleset's `seeds_choose`: 004 §1.1.5–1.1.6), since then it decides who chooses first.
    """
    passed_over = set(passed_over)
    seed = {p: n for n, p in enumerate(ranked, start=1)}
    table_of = {p: n for n, table in enumerate(tables) for p in table}
    at_cutoff = ties_at_cutoff(standings, len(ranked), passed_over=passed_over) if cut else []
    straddling = {frozenset(s.player for s in group) for group in at_cutoff}
    found = []
    for group in tie_groups(standings):
        players = tuple(s.player for s in group if not s.disqualified and s.player not in passed_over)
        together: dict[int, list[int]] = defaultdict(list)
        for p in players:
            if p in seed:
                together[table_of[p]].append(seed[p])
        tie = SeatingTie(
            players if frozenset(players) in straddling else tuple(p for p in players if p in seed),
            cutoff=len(ranked) if frozenset(players) in straddling else None,
            tables=len(together) > 1,
            seeds=tuple(sorted(s for seeds in together.values() if len(seeds) > 1 for s in seeds))
            if order_of_choice else (),
        )
        if tie.matters:
            found.append(tie)
    return found


def replacement(
    standings: Sequence[Standing], qualified: Collection[Hashable], unavailable: Collection[Hashable] = (),
) -> Hashable | None:
    """The next best player of this qualifier neither qualified nor unavailable; None if nobody is left.

    `qualified` is everyone qualified in the championship so far (including the player being
    replaced); `unavailable` is whoever already declined the place.
    """
    return next(iter(qualifiers(standings, 1, {*qualified, *unavailable})), None)


@dataclass(frozen=True)
class Finalists:
    """Who plays the final after the semifinals: each table's winner, or, where the winner takes no further part
    (disqualified, withdrawn), the next finisher of that table (docs/rules.md §4, Penalties)."""

    players: tuple[Hashable, ...]
    """One per semifinal table, in table order (a table with nobody left to play has none)."""
    replaced: Mapping[Hashable, Hashable]
    """Each replacement's table winner, who takes no further part."""
    undecided: Mapping[Hashable, tuple[Hashable, ...]]
    """A replaced winner's next finishers still tied after the chain, the one listed first included: a draw decides."""


def semifinal_finalists(
    prelim_tables: Iterable[TableResult], semifinal_tables: Iterable[TableResult], *, ruleset: Ruleset | str,
    deductions: Mapping[Hashable, int] | None = None, draws: Iterable[Sequence[Hashable]] = (),
    disqualified: Collection[Hashable] = (), absent: Collection[Hashable] = (), players: Iterable[Hashable] = (),
) -> Finalists:
    """The final's players: the semifinal winners, a winner who takes no further part replaced (`Finalists`).

    The replacement follows 001 §3 ("the next best-ranked player from the same Qualifier will qualify in their
    place"): the best place at the same semifinal table among its players still in, equal places decided by the
    ruleset's chain over preliminary + semifinal games, then by a recorded draw (004 §1.3.4, I-33).
    """
    rules = ruleset_for(ruleset)
    semifinal_tables = list(semifinal_tables)
    records = player_records([*prelim_tables, *semifinal_tables], rules, deductions=deductions, players=players)
    return _finalists(semifinal_tables, records, rules, draws=list(draws), out={*disqualified, *absent})


def _finalists(semifinal_tables: Sequence[TableResult], records: Mapping[Hashable, PlayerRecord], rules: Ruleset, *,
               draws: Sequence[Sequence[Hashable]], out: Collection[Hashable]) -> Finalists:
    chosen, replaced, undecided = [], {}, {}
    for table in sorted(semifinal_tables, key=lambda t: (t.game, t.table)):
        places = {seat.player: score.place for seat, score in zip(table.seats, score_table(table, rules))}
        winner = next(seat.player for seat in table.seats if seat.winner)
        if winner not in out:
            chosen.append(winner)
            continue
        still_in = [p for p in places if p not in out]
        if not still_in:
            continue
        best = min(places[p] for p in still_in)
        order = rank_records({p: records[p] for p in still_in if places[p] == best}, rules, draws=draws)
        chosen.append(order[0].player)
        replaced[order[0].player] = winner
        if order[0].tied:
            undecided[order[0].player] = tuple(s.player for s in order if s.tied and s.rank == order[0].rank)
    return Finalists(tuple(chosen), replaced, undecided)


def final_classification(
    prelim_tables: Iterable[TableResult], semifinal_tables: Iterable[TableResult] = (),
    final_table: TableResult | None = None, *, ruleset: Ruleset | str,
    deductions: Mapping[Hashable, int] | None = None, draws: Iterable[Sequence[Hashable]] = (),
    disqualified: Collection[Hashable] = (), absent: Collection[Hashable] = (), players: Iterable[Hashable] = (),
) -> list[Standing]:
    """The event's classification after its preliminary, semifinal and final games (docs/rules.md §4, cwc-2025).

    Places 1–4 go to the finalists in their order of finish at the final table (before the final: the
    semifinal winners, a winner who takes no further part, disqualified or `absent`, replaced by the next
    finisher of their table as `semifinal_finalists` says; players tied for that place hold it together until
    a draw decides); equal places there, and the semifinalists' places 5–16, are decided by the ruleset's
    chain over preliminary + semifinal games; everyone else keeps the preliminary order. A recorded draw
    carries forward. Without semifinals the final table's players are the finalists (CNC finals: top 4 play
    one final game). Values are over preliminary + semifinal games; game numbers must be distinct across the
    stages.
    """
    rules = ruleset_for(ruleset)
    semifinal_tables = list(semifinal_tables)
    draws = list(draws)
    records = player_records([*prelim_tables, *semifinal_tables], rules,
                             deductions=deductions, players=players)
    lead = {p: (0, 0) for p in records}
    for table in semifinal_tables:
        for seat in table.seats:
            lead[seat.player] = (1, 0)
    if final_table is None and semifinal_tables:
        field = _finalists(semifinal_tables, records, rules, draws=draws, out={*disqualified, *absent})
        for p in [*field.players, *(p for group in field.undecided.values() for p in group)]:
            lead[p] = (2, 0)
    if final_table is not None:
        validate([final_table], rules)
        finalists = [s.player for s in final_table.seats]
        if not set(finalists) <= records.keys():
            raise ValueError("Every finalist must have played the earlier games.")
        if semifinal_tables:
            _check_final_field(finalists, semifinal_tables, {*disqualified, *absent})
        for seat, score in zip(final_table.seats, score_table(final_table, rules)):
            lead[seat.player] = (2, -score.place)
    return rank_records(records, rules, draws=draws, disqualified=disqualified, lead=lead)


def _check_final_field(finalists: Sequence[Hashable], semifinal_tables: Sequence[TableResult],
                       out: Collection[Hashable]) -> None:
    """A final seats one player of each semifinal table: its winner, or another of its players where the winner
    takes no further part (a disqualification after the final leaves the winner seated there)."""
    table_of = {seat.player: (t.game, t.table) for t in semifinal_tables for seat in t.seats}
    winner_of = {(t.game, t.table): next(s.player for s in t.seats if s.winner) for t in semifinal_tables}
    tables = [table_of[p] for p in finalists if p in table_of]
    if len(tables) != len(finalists) or len(set(tables)) != len(tables) or any(
            p != winner_of[t] and winner_of[t] not in out for p, t in zip(finalists, tables)):
        raise ValueError("The final table must seat one player of each semifinal table: its winner, or the next "
                         "finisher where the winner takes no further part.")


def lord_of_catan_advancers(
    standings: Sequence[Standing], k: int = SEMIFINALISTS, passed_over: Collection[Hashable] = (),
) -> list[Hashable]:
    """The `k` players who reach the semifinals from `lord-of-catan` ranking-round standings.

    That ruleset orders by wins, 2nd places, then tempo, so over the one-game ranking round its top k
    are exactly the rule of seed 003: more than k table winners → the k winners with the best
    tempo; fewer → all winners plus the best second-placed players by tempo. Interpretation: if
    winners and seconds are still fewer than k, the best of the rest by tempo complete the field.
    Raises TieAtCutoff when a tie straddles place k. `passed_over` players (withdrawn) take no place.
    """
    return qualifiers(standings, k, passed_over)
