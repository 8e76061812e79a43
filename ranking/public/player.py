"""A player's public page: their standing and every game."""

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from typing import cast

from django.conf import settings
from django.core.cache import cache

from championships.models import GONE_STATUSES, Entry, Tournament
from engines.ranking.engine import TableResult, score_table
from engines.rulesets import ruleset_for
from ranking.public.game import seat_result
from ranking.public.names import namesake_numbers
from ranking.public.versioned import per_version
from ranking.selectors import advancing_entries
from ranking.standings import (
    Results,
    load_results,
    ranked_standings,
    results_version,
    tournament_standings,
)
from results.selectors import CountedDeduction, counted_deductions
from scheduling.models import Game, Seat


@dataclass(frozen=True)
class PlayerGame:
    game: int
    table: int
    position: int
    opponents: list[tuple[str, int, int | None]]
    """(name, player id, namesake number) of the others at the table, in play order."""
    signed_off: bool
    vp: int | None
    winner: bool
    place: int | None
    share: float | None
    """VP share of the table (counted VP over the table total), 0–1."""
    rank_after: int | None

    @property
    def share_percent(self) -> float | None:
        return None if self.share is None else self.share * 100


@dataclass(frozen=True)
class PlayerPage:
    entry: Entry
    row: dict | None
    """The player's standing row (rank, tied and every metric), None before any result."""
    games: list[PlayerGame]
    status: str
    """Qualification: "sent", "advancing", "qualified" (a finalist from a qualifier), "waiting" or ""."""
    namesake: int | None = None
    """The player's number among namesakes, as every public list shows it."""
    deductions: list[CountedDeduction] = field(default_factory=list)
    """The VP taken off their total VP, each with what for (issue 32 item 6)."""
    seats: list[Seat] = field(default_factory=list)
    """The player's seats in games published or played, by game (with game, stage, table, sheet and score)."""
    table_seats: dict[int, list[Seat]] = field(default_factory=dict)
    """Table id → every seat of the player's tables, in play order (with the players' names): the private page's
    table-mates come from here, not from queries of their own."""

    @property
    def ranked(self) -> bool:
        """Whether the rank means anything yet: before the player's first signed-off game everyone is "1 =" (issue
        32 item 5), so the pages say there is no rank yet."""
        return self.row is not None and any(game.signed_off for game in self.games)


def rank_history(tournament: Tournament) -> dict[int, dict[int, int]]:
    """Each entry's rank after each game (game number → rank), cached with the standings' generation."""
    return per_version(tournament, "rank-history", lambda: _rank_history(tournament))


def _games_key(tournament_id: int) -> str:
    return f"rank-history-games:{tournament_id}"


def _rank_history(tournament: Tournament) -> dict[int, dict[int, int]]:
    """The ranking after each game, recomputed only for the games whose standings changed: the ranks after game n
    depend on the tables of games 1..n and on what holds for the whole event (entries gone or disqualified,
    deductions, draws), so a digest of those tells the games whose ranks the last computation still holds (a
    sign-off in game 3 re-ranks after game 3 alone)."""
    results = load_results(tournament)
    tables = sorted((t.game, kind, t.table, t) for kind, stage in results.tables_by_stage.items() for t in stage)
    statuses = sorted((pk, e.status in GONE_STATUSES, pk in results.disqualified) for pk, e in results.entries.items())
    digest = hashlib.sha256(repr((tournament.ruleset, statuses, sorted(results.deductions.items()), results.draws))
                            .encode())
    previous = _quietly(lambda: cache.get(_games_key(tournament.pk))) or {}
    by_game: dict[int, tuple[str, dict[int, int]]] = {}
    at = 0
    for number in sorted({game for game, *_rest in tables}):
        while at < len(tables) and tables[at][0] == number:
            digest.update(repr(tables[at][1:]).encode())
            at += 1
        key = digest.hexdigest()
        known = previous.get(number)
        if known is not None and known[0] == key:
            by_game[number] = known
            continue
        upto = Results({k: [t for t in v if t.game <= number] for k, v in results.tables_by_stage.items()},
                       results.entries, results.deductions, results.draws, results.disqualified)
        by_game[number] = (key, {cast(int, standing.player): standing.rank  # the engine ranks entries by id
                                 for standing in ranked_standings(tournament, upto, whole_event=True)})
    _quietly(lambda: cache.set(_games_key(tournament.pk), by_game, timeout=settings.STANDINGS_CACHE_SECONDS))
    history: dict[int, dict[int, int]] = defaultdict(dict)
    for number, (_key, ranks) in by_game.items():
        for entry, rank in ranks.items():
            history[entry][number] = rank
    return dict(history)


@dataclass(frozen=True)
class Summary:
    """What a player's page shows of the whole tournament's results: the same for every reader of a results
    version, so the background refresh stores one per entry (`store_summaries`) and a page reads its own."""

    row: dict | None
    rank_after: dict[int, int]
    status: str
    namesake: int | None


SUMMARY_BUCKETS = 32
"""Summaries are stored in this many cache entries per version, by entry id: one entry each would be 3,000 keys at
a big event (the local-memory cache of a single process keeps 300), one for all would have every reader unpickle
them all; a bucket of a 3,000-player event is about 100 summaries, a fifth of a millisecond to read."""


def _summary_key(tournament_id: int, version: str, entry_id: int) -> str:
    return f"player-summaries:{tournament_id}:{version}:{entry_id % SUMMARY_BUCKETS}"


def summaries(tournament: Tournament) -> dict[int, Summary]:
    """Every entry's summary, from the version's standings, rank history and namesakes."""
    rows = {row["entry"]: row for row in tournament_standings(tournament)}
    history, namesakes = rank_history(tournament), namesake_numbers(tournament)
    statuses = _qualification_statuses(tournament, list(rows.values()))
    return {pk: Summary(rows.get(pk), history.get(pk, {}), statuses.get(pk, ""), namesakes.get(pk))
            for pk in tournament.entries.values_list("pk", flat=True)}


def store_summaries(tournament: Tournament) -> None:
    """The background refresh's share of the player pages (ranking/refresh.py): each entry's summary of the newest
    results version, in one round trip, so the first reader of a player's page after a sign-off reads a small
    bucket instead of the whole tournament's standings and history."""
    version = results_version(tournament.pk)
    if version is not None:
        buckets: dict[str, dict[int, Summary]] = defaultdict(dict)
        for pk, summary in summaries(tournament).items():
            buckets[_summary_key(tournament.pk, version, pk)][pk] = summary
        _quietly(lambda: cache.set_many(dict(buckets), timeout=settings.STANDINGS_CACHE_SECONDS))


def player_summary(tournament: Tournament, entry: Entry) -> Summary:
    """The entry's summary as the refresh stored it; before it has (no worker, or a reader faster than the job),
    computed from the version's cached standings as every page computes them."""
    version = results_version(tournament.pk)
    bucket = _quietly(lambda: cache.get(_summary_key(tournament.pk, version, entry.pk))) if version else None
    if bucket and entry.pk in bucket:
        return bucket[entry.pk]
    rows = tournament_standings(tournament)
    row = next((r for r in rows if r["entry"] == entry.pk), None)
    status = _qualification_statuses(tournament, rows, entry).get(entry.pk, "")
    return Summary(row, rank_history(tournament).get(entry.pk, {}), status, namesake_numbers(tournament).get(entry.pk))


def _quietly(call):
    """A cache call: the cache is an optimisation, so an error means "not cached"."""
    try:
        return call()
    except Exception:  # any backend's connection or timeout error
        return None


def player_page(tournament: Tournament, player_id: int, entry: Entry | None = None) -> PlayerPage | None:
    """`entry`: the player's entry when the caller has it (with player__country and source_tournament)."""
    if entry is None:
        entry = (tournament.entries.select_related("player__country", "source_tournament")
                 .filter(player_id=player_id).first())
    if entry is None:
        return None
    rules = ruleset_for(tournament.ruleset)
    own = list(Seat.objects.filter(entry=entry).exclude(game__status=Game.Status.PLANNED)
               .select_related("game__stage", "table__sheet", "score").order_by("game__number"))
    others: dict[int, list[Seat]] = defaultdict(list)
    for seat in (Seat.objects.filter(table__in=[s.table_id for s in own]).select_related("entry__player", "score")
                 .order_by("position")):
        others[seat.table_id].append(seat)
    summary = player_summary(tournament, entry)
    history = summary.rank_after
    namesakes = namesake_numbers(tournament)
    games = []
    for seat in own:
        table_seats = others[seat.table_id]
        sheet = getattr(seat.table, "sheet", None)
        signed_off = sheet is not None and sheet.is_locked
        vp = place = share = None
        if signed_off:
            scores = score_table(TableResult(seat.game.number, seat.table.number,
                                             tuple(seat_result(s) for s in table_seats)), rules)
            mine = scores[[s.pk for s in table_seats].index(seat.pk)]
            vp, place, share = seat.score.vp, mine.place, mine.vp / mine.table_total if mine.table_total else None
        games.append(PlayerGame(seat.game.number, seat.table.number, seat.position,
                                [(s.entry.player.name, s.entry.player_id, namesakes.get(s.entry_id))
                                 for s in table_seats if s.pk != seat.pk],
                                signed_off, vp, signed_off and seat.score.winner, place, share,
                                history.get(seat.game.number) if signed_off else None))
    row = summary.row
    return PlayerPage(entry, row, games, "qualified" if entry.source_tournament_id is not None else summary.status,
                      summary.namesake, counted_deductions(tournament, entry.pk).get(entry.pk, [])
                      if row and row.get("vp_deducted") else [], own, dict(others))


def _qualification_statuses(tournament: Tournament, rows: list[dict], entry: Entry | None = None) -> dict[int, str]:
    """Entry id → "sent" or "advancing" for a qualifier's entries going on to the finals (of every entry, or of
    `entry` only); a finalist's "qualified" comes from their own entry."""
    if tournament.kind != Tournament.Kind.QUALIFIER or not tournament.advance_count:
        return {}
    advancing = advancing_entries(tournament, rows)
    if entry is not None:
        advancing &= {entry.pk}
    if not advancing:
        return {}
    sent = set(tournament.qualified_entries.values_list("player_id", flat=True))
    players = {row["entry"]: row["player_id"] for row in rows if row["entry"] in advancing}
    return {pk: "sent" if players.get(pk) in sent else "advancing" for pk in advancing}
