"""A player's public page: their standing and every game."""

from collections import defaultdict
from dataclasses import dataclass, field
from typing import cast

from championships.models import Entry, Tournament
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

    @property
    def ranked(self) -> bool:
        """Whether the rank means anything yet: before the player's first signed-off game everyone is "1 =" (issue
        32 item 5), so the pages say there is no rank yet."""
        return self.row is not None and any(game.signed_off for game in self.games)


def rank_history(tournament: Tournament) -> dict[int, dict[int, int]]:
    """Each entry's rank after each game (game number → rank), cached with the standings' generation."""
    return per_version(tournament, "rank-history", lambda: _rank_history(tournament))


def _rank_history(tournament: Tournament) -> dict[int, dict[int, int]]:
    results = load_results(tournament)
    numbers = sorted({t.game for tables in results.tables_by_stage.values() for t in tables})
    history: dict[int, dict[int, int]] = defaultdict(dict)
    for number in numbers:
        upto = Results({k: [t for t in v if t.game <= number] for k, v in results.tables_by_stage.items()},
                       results.entries, results.deductions, results.draws, results.disqualified)
        for standing in ranked_standings(tournament, upto, whole_event=True):
            history[cast(int, standing.player)][number] = standing.rank  # the engine ranks entries by id
    return dict(history)


def player_page(tournament: Tournament, player_id: int) -> PlayerPage | None:
    entry = (tournament.entries.select_related("player__country", "source_tournament")
             .filter(player_id=player_id).first())
    if entry is None:
        return None
    rules = ruleset_for(tournament.ruleset)
    own = list(Seat.objects.filter(entry=entry).exclude(game__status=Game.Status.PLANNED)
               .select_related("game", "table__sheet", "score").order_by("game__number"))
    others: dict[int, list[Seat]] = defaultdict(list)
    for seat in (Seat.objects.filter(table__in=[s.table_id for s in own]).select_related("entry__player", "score")
                 .order_by("position")):
        others[seat.table_id].append(seat)
    history = rank_history(tournament).get(entry.pk, {})
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
    rows = tournament_standings(tournament)
    row = next((r for r in rows if r["entry"] == entry.pk), None)
    return PlayerPage(entry, row, games, _qualification_status(tournament, entry, rows), namesakes.get(entry.pk),
                      counted_deductions(tournament, entry.pk).get(entry.pk, []) if row and row["vp_deducted"] else [])


def _qualification_status(tournament: Tournament, entry: Entry, rows: list[dict]) -> str:
    if entry.source_tournament_id is not None:
        return "qualified"
    if tournament.kind != Tournament.Kind.QUALIFIER or not tournament.advance_count:
        return ""
    advancing = advancing_entries(tournament, rows)
    if entry.pk in advancing:
        return "sent" if tournament.qualified_entries.filter(player_id=entry.player_id).exists() else "advancing"
    return ""
