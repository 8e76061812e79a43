"""Who goes on: qualifiers, replacements, the world-championship classification, Lord of Catan's 16.

Pure functions over engine standings (docs/rules.md §1, §4).
"""
from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence

from engines.ranking.engine import (
    Standing,
    TableResult,
    player_records,
    rank_records,
    score_table,
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
    return _eligible(standings, passed_over)[:n]


def replacement(
    standings: Sequence[Standing], qualified: Collection[Hashable], unavailable: Collection[Hashable] = (),
) -> Hashable | None:
    """The next best player of this qualifier neither qualified nor unavailable; None if nobody is left.

    `qualified` is everyone qualified in the championship so far (including the player being
    replaced); `unavailable` is whoever already declined the place.
    """
    return next(iter(qualifiers(standings, 1, {*qualified, *unavailable})), None)


def final_classification(
    prelim_tables: Iterable[TableResult], semifinal_tables: Iterable[TableResult] = (),
    final_table: TableResult | None = None, ruleset: Ruleset | str = "cwc-2025", *,
    deductions: Mapping[Hashable, int] | None = None, draws: Iterable[Sequence[Hashable]] = (),
    disqualified: Collection[Hashable] = (), players: Iterable[Hashable] = (),
) -> list[Standing]:
    """The event's classification after its preliminary, semifinal and final games (docs/rules.md §4, cwc-2025).

    Places 1–4 go to the finalists in their order of finish at the final table (before the final:
    the semifinal winners); equal places there, and the semifinalists' places 5–16, are decided by the
    ruleset's chain over preliminary + semifinal games; everyone else keeps the preliminary order.
    A recorded draw carries forward. Without semifinals the final table's players are the finalists
    (CNC finals: top 4 play one final game). Values are over preliminary + semifinal games; game
    numbers must be distinct across the stages.
    """
    rules = ruleset_for(ruleset)
    semifinal_tables = list(semifinal_tables)
    records = player_records([*prelim_tables, *semifinal_tables], rules,
                             deductions=deductions, players=players)
    lead = {p: (0, 0) for p in records}
    for table in semifinal_tables:
        for seat in table.seats:
            lead[seat.player] = (2, 0) if seat.winner else (1, 0)
    if final_table is not None:
        validate([final_table], rules)
        finalists = {s.player for s in final_table.seats}
        if semifinal_tables and finalists != {p for p, (tier, _) in lead.items() if tier == 2}:
            raise ValueError("The final table must seat exactly the semifinal winners.")
        if not finalists <= records.keys():
            raise ValueError("Every finalist must have played the earlier games.")
        for seat, score in zip(final_table.seats, score_table(final_table, rules)):
            lead[seat.player] = (2, -score.place)
    return rank_records(records, rules, draws=draws, disqualified=disqualified, lead=lead)


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
