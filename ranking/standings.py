"""Standings from the database: signed-off sheets, penalties and draws fed to the pure engine.

A fixed handful of queries whatever the number of players; the result is cached per tournament
under a generation token that every sign-off, correction, penalty or draw replaces, so a reader
racing an invalidation can never store a stale ranking under the new token.

The cache is an optimisation, never a dependency: when it fails, standings are computed from the
database and an invalidation that cannot reach it is logged, not raised into the request that
committed the change. Cached standings also expire after `STANDINGS_CACHE_SECONDS`, so a lost
invalidation heals within that bound.
"""
import logging
import uuid
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from django.conf import settings
from django.core.cache import cache
from django.db.models import Sum

from championships.models import GONE_STATUSES, Entry, Stage, Tournament
from championships.namesakes import entry_numbers
from engines.ranking.advancement import Finalists, final_classification, semifinal_finalists
from engines.ranking.engine import SeatResult, Standing, TableResult, rank, score_table, straddles, tie_groups
from engines.ranking.timing import game_minutes
from engines.rulesets import ruleset_for
from results.models import Penalty, RecordSheet, Score, TiebreakDrawPlace

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Results:
    """Everything the engine needs about one tournament, keyed by entry id."""

    tables_by_stage: dict[str, list[TableResult]]
    entries: dict[int, Entry]
    deductions: dict[int, int]
    draws: list[list[int]]
    disqualified: set[int]


def load_results(tournament: Tournament, stage: Stage | None = None) -> Results:
    scores = (
        Score.objects.filter(sheet__status=RecordSheet.Status.SIGNED_OFF,
                             sheet__table__game__tournament=tournament)
        .order_by("sheet__table__game__number", "sheet__table__number", "seat__position")
        .values_list("sheet__table__game__stage__kind", "sheet__table__game__number", "sheet__table__number",
                     "seat__entry_id", "vp", "winner", "sheet__start_time", "sheet__end_time")
    )
    if stage is not None:
        scores = scores.filter(sheet__table__game__stage=stage)
    seats_by_table: dict[tuple, list[SeatResult]] = defaultdict(list)
    minutes: dict[tuple, int | None] = {}
    for kind, game, table, entry, vp, winner, start, end in scores:
        # A sheet is signed off only with every seat's VP (results.sheets checks the table first).
        seats_by_table[(kind, game, table)].append(SeatResult(entry, cast(int, vp), winner))
        minutes[(kind, game, table)] = game_minutes(start, end)
    tables_by_stage: dict[str, list[TableResult]] = defaultdict(list)
    for (kind, game, table), seats in seats_by_table.items():
        tables_by_stage[kind].append(TableResult(game, table, tuple(seats), minutes[(kind, game, table)]))

    entries = {e.pk: e for e in Entry.objects.filter(tournament=tournament).select_related("player__country")}
    deductions = dict(
        Penalty.objects.filter(tournament=tournament, vp__gt=0, withdrawn_at__isnull=True).values("entry")
        .annotate(total=Sum("vp"))
        .values_list("entry", "total")
    )
    draws: dict[int, list[int]] = defaultdict(list)
    for draw, entry in (TiebreakDrawPlace.objects.filter(draw__tournament=tournament)
                        .order_by("draw__recorded_at", "draw_id", "place").values_list("draw_id", "entry_id")):
        draws[draw].append(entry)
    disqualified = {pk for pk, e in entries.items() if e.status == Entry.Status.DISQUALIFIED}
    return Results(dict(tables_by_stage), entries, deductions, list(draws.values()), disqualified)


def _ranking_inputs(results: Results) -> dict:
    """Who is ranked (everyone who played or still plays) with their deductions, draws and disqualifications."""
    played = {s.player for tables in results.tables_by_stage.values() for t in tables for s in t.seats}
    players = [pk for pk, e in results.entries.items() if pk in played or e.status not in GONE_STATUSES]
    return dict(deductions={p: vp for p, vp in results.deductions.items() if p in players},
                draws=results.draws, disqualified=results.disqualified & set(players), players=players)


def absent_entries(results: Results) -> set[int]:
    """Entries that take no further part without being disqualified (withdrawn, not admitted, did not come): passed
    over wherever players go on; disqualified ones the engine lists last."""
    return {pk for pk, entry in results.entries.items() if entry.status in GONE_STATUSES}


def ranked_standings(tournament: Tournament, results: Results, whole_event: bool) -> list[Standing]:
    common = _ranking_inputs(results)
    tables = results.tables_by_stage
    later = tables.get(Stage.Kind.SEMIFINAL) or tables.get(Stage.Kind.FINAL)
    if not whole_event or not later:
        return rank([t for stage in tables.values() for t in stage], tournament.ruleset, **common)
    final = tables.get(Stage.Kind.FINAL, [])
    return final_classification(
        tables.get(Stage.Kind.PRELIMINARY, []), tables.get(Stage.Kind.SEMIFINAL, []),
        final[0] if final else None, ruleset=tournament.ruleset, absent=absent_entries(results), **common,
    )


def final_field(tournament: Tournament, results: Results) -> Finalists:
    """Who plays the final after the semifinals: the winners, one who takes no further part replaced by the next
    finisher of their table (the ranking's own inputs, so the standings and the seating agree)."""
    tables = results.tables_by_stage
    return semifinal_finalists(tables.get(Stage.Kind.PRELIMINARY, []), tables.get(Stage.Kind.SEMIFINAL, []),
                               ruleset=tournament.ruleset, absent=absent_entries(results), **_ranking_inputs(results))


def preliminary_standings(tournament: Tournament, results: Results) -> list[Standing]:
    """The ranking over the preliminary stage's games only, recorded draws carrying forward.

    The order in which a world final's players choose chair, colour and play order (seed 004
    §1.1.6: "in order of their Preliminary rank"), whatever the semifinal games did.
    """
    return rank(results.tables_by_stage.get(Stage.Kind.PRELIMINARY, []), tournament.ruleset,
                **_ranking_inputs(results))


def standing_rows(results: Results, standings: list[Standing]) -> list[dict]:
    namesakes = entry_numbers((pk, e.player.name) for pk, e in results.entries.items())
    rows = []
    for standing in standings:
        entry = results.entries[cast(int, standing.player)]  # the engine ranks entries by id
        row = standing.as_json()
        row.update(player=entry.player.name, entry=entry.pk, player_id=entry.player_id,
                   country=entry.player.country.code if entry.player.country else None,
                   status=entry.status, namesake=namesakes.get(entry.pk),
                   vp_deducted=results.deductions.get(entry.pk, 0))
        rows.append(row)
    return rows


def final_results(results: Results, ruleset: str) -> dict[int, dict]:
    """Each finalist's result at the signed-off final table, by entry: the game, the place (its order of finish
    decides places 1–4, I-33), the VP scored and whether they won. Empty before the final is played."""
    final = results.tables_by_stage.get(Stage.Kind.FINAL, [])
    if not final:
        return {}
    table = final[0]
    return {cast(int, seat.player): {"game": table.game, "place": score.place, "vp": seat.vp, "winner": seat.winner}
            for seat, score in zip(table.seats, score_table(table, ruleset_for(ruleset)))}


def compute_standings(tournament: Tournament, stage: Stage | None = None) -> list[dict]:
    """Rows in rank order, each with every metric's value (the `rank --json` objects plus ids) and, over the whole
    event, the player's `final` result (None for players who did not play the final table)."""
    results = load_results(tournament, stage)
    rows = standing_rows(results, ranked_standings(tournament, results, whole_event=stage is None))
    final = final_results(results, tournament.ruleset) if stage is None else {}
    for row in rows:
        row["final"] = final.get(row["entry"])
    return rows


def _generation_key(tournament_id: int) -> str:
    return f"standings-generation:{tournament_id}"


_lost_invalidations: set[int] = set()
"""Tournaments whose invalidation this process could not deliver (the cache was down or frozen). Replayed as
soon as the cache answers again: otherwise pages and ETags built on the old generation stay stale after
Redis is back, and a browser revalidating its copy keeps getting 304 (`make chaos`, "Redis frozen")."""


def _replay_lost_invalidations() -> None:
    """Raises, like any cache call, while the cache is still unreachable."""
    for tournament_id in list(_lost_invalidations):
        cache.set(_generation_key(tournament_id), uuid.uuid4().hex, timeout=None)
        _lost_invalidations.discard(tournament_id)


def tournament_standings(tournament: Tournament, stage: Stage | None = None) -> list[dict]:
    """Cached standings; recomputed after any change to the tournament's results, or from the
    database alone while the cache is unreachable."""
    generation = results_version(tournament.pk)
    if generation is None:
        return compute_standings(tournament, stage)
    key = f"standings:{tournament.pk}:{stage.pk if stage else 'all'}:{generation}"
    try:
        rows = cache.get(key)
    except Exception as error:  # any backend's connection or timeout error: the database still answers
        logger.warning("Standings cache unavailable (%r); computing tournament %s from the database.",
                       error, tournament.pk)
        return compute_standings(tournament, stage)
    if rows is None:
        rows = compute_standings(tournament, stage)
        try:
            cache.set(key, rows, timeout=settings.STANDINGS_CACHE_SECONDS)
        except Exception as error:
            logger.warning("Could not cache the standings of tournament %s (%r).", tournament.pk, error)
    return rows


def invalidate_standings(tournament_id: int) -> None:
    """Replace the generation token; runs after the change committed, so it must never fail the request."""
    try:
        cache.set(_generation_key(tournament_id), uuid.uuid4().hex, timeout=None)
        _lost_invalidations.discard(tournament_id)
    except Exception as error:
        _lost_invalidations.add(tournament_id)
        logger.warning("Could not invalidate the standings of tournament %s (%r); done as soon as the cache "
                       "answers again (cached standings expire within %s seconds anyway).",
                       tournament_id, error, settings.STANDINGS_CACHE_SECONDS)


def tied_groups(rows: list[dict]) -> list[tuple[dict, ...]]:
    """Groups of standing rows that still share a rank after every tiebreaker, best first."""
    return tie_groups(rows, lambda row: (row["rank"], row["tied"]))


def straddles_cutoff(group: Sequence[dict], cutoff: int) -> bool:
    """True when a group of tied rows crosses the places that advance."""
    return straddles(group[0]["rank"], len(group), cutoff)


def results_version_with(tournament_id: int, keys: list[str]) -> tuple[str | None, dict]:
    """The results version and the cache entries under `keys`, in one round trip (what a public page reads on
    every request); (None, {}) while the cache is unreachable."""
    generation = _generation_key(tournament_id)
    try:
        _replay_lost_invalidations()
        found = cache.get_many([generation, *keys])
    except Exception as error:
        logger.warning("Results version unavailable for tournament %s (%r).", tournament_id, error)
        return None, {}
    version = found.pop(generation, None)
    return (version or results_version(tournament_id)), found


def results_version(tournament_id: int) -> str | None:
    """The tournament's current generation token: what the public pages' ETags and the live poll compare.

    It changes with everything those pages show (results, penalties, draws, entries, games published or
    finished, announcements). None while the cache is unreachable: then pages are simply rendered.
    """
    try:
        _replay_lost_invalidations()
        return cache.get_or_set(_generation_key(tournament_id), uuid.uuid4().hex, timeout=None)
    except Exception as error:
        logger.warning("Results version unavailable for tournament %s (%r).", tournament_id, error)
        return None
