"""Reads for the standings and qualification pages (the standings themselves come from `standings`)."""
from dataclasses import dataclass, field

from championships.models import ACTIVE_STATUSES, Entry, Stage, Tournament
from scheduling.models import Game

from .columns import Column, standings_columns
from .standings import straddles_cutoff, tied_groups, tournament_standings

SHOWN_BELOW_CUTOFF = 4
"""Standing rows shown below the last advancing place, so the organizer sees who is next."""


@dataclass(frozen=True)
class QualificationPage:
    rows: list[dict] | None = None
    """A qualifier's standings down to a few places below the cut-off; None for other tournaments."""
    blocking: list[tuple[dict, ...]] = field(default_factory=list)
    """Ties across the cut-off that need a recorded draw first."""
    advanced: list[Entry] = field(default_factory=list)
    """This qualifier's players already entered in the finals."""
    finalists: list[Entry] = field(default_factory=list)
    """Finals: entries that came from qualifiers, by qualifier and rank."""
    finals: Tournament | None = None
    """The championship's finals (this tournament itself on the finals' page)."""
    places_left: int | None = None
    """The finals' places not taken by an active entry; None for open entry."""


def finals_of_championship(tournament: Tournament) -> Tournament | None:
    """The finals of the tournament's championship (the tournament itself if it is the finals)."""
    if tournament.kind == Tournament.Kind.FINALS:
        return tournament
    if tournament.championship_id is None:
        return None
    return Tournament.objects.filter(championship_id=tournament.championship_id,
                                     kind=Tournament.Kind.FINALS).first()


def finalists_in_play(finals: Tournament) -> set[int]:
    """Players holding a finals place: active entries, wherever they came from."""
    return set(finals.entries.filter(status__in=ACTIVE_STATUSES).values_list("player_id", flat=True))


def places_left(finals: Tournament) -> int | None:
    """The finals' capacity (seed 001 §3: 16, 24 or 4 finalists) minus its active entries; None for open entry."""
    if finals.capacity is None:
        return None
    return max(finals.capacity - len(finalists_in_play(finals)), 0)


def qualification_page(tournament: Tournament) -> QualificationPage:
    finalists = list(tournament.entries.filter(source_tournament__isnull=False).select_related(
        "player", "source_tournament", "replaces__player").order_by("source_tournament__date", "source_rank"))
    finals = finals_of_championship(tournament)
    room = places_left(finals) if finals is not None else None
    if tournament.kind != Tournament.Kind.QUALIFIER:
        return QualificationPage(finalists=finalists, finals=finals, places_left=room)
    rows = tournament_standings(tournament)
    return QualificationPage(
        rows=rows[: tournament.advance_count + SHOWN_BELOW_CUTOFF],
        blocking=[g for g in tied_groups(rows) if straddles_cutoff(g, tournament.advance_count)],
        advanced=list(tournament.qualified_entries.select_related("player", "tournament")),
        finalists=finalists,
        finals=finals,
        places_left=room,
    )


def qualified_players(finals: Tournament) -> set[int]:
    """Players holding (or having declined) a finals place won in a qualifier of this championship."""
    return set(finals.entries.filter(source_tournament__isnull=False).values_list("player_id", flat=True))


def advancing_entries(tournament: Tournament, rows: list[dict]) -> set[int]:
    """A qualifier's entries that go on to the finals: those sent, or as things stand the top N still eligible."""
    if tournament.kind != Tournament.Kind.QUALIFIER or not tournament.advance_count:
        return set()
    finals = finals_of_championship(tournament)
    if finals is None:
        return set()
    sent = set(finals.entries.filter(source_tournament=tournament).values_list("player_id", flat=True))
    if sent:
        return {row["entry"] for row in rows if row["player_id"] in sent}
    qualified = qualified_players(finals)
    eligible = [row for row in rows if row["status"] in ACTIVE_STATUSES
                and not row["disqualified"] and row["player_id"] not in qualified]
    return {row["entry"] for row in eligible[: tournament.advance_count]}


@dataclass(frozen=True)
class StandingsPage:
    columns: list[Column]
    rows: list[tuple[dict, list[str]]]
    """Each standing row with its columns' values as shown."""
    advancing: set[int]
    """Entries marked as going on to the finals."""


def standings_page(tournament: Tournament) -> StandingsPage:
    rows = tournament_standings(tournament)
    columns = standings_columns(tournament.ruleset, rows)
    return StandingsPage(columns, [(row, [c.show(row[c.key]) for c in columns]) for row in rows],
                         advancing_entries(tournament, rows))


PODIUM_PLACES = 3


def tournament_done(stages: list[Stage], games: list[Game]) -> bool:
    """Every game of the last stage is played and signed off."""
    if not stages:
        return False
    last = max(stages, key=lambda s: s.order)
    played = [g for g in games if g.stage_id == last.pk]
    return len(played) >= last.games and all(g.status == Game.Status.FINISHED for g in played)


def podium(tournament: Tournament, done: bool | None = None) -> list[dict]:
    """The first three of the whole event (ties share a place), rank 1 the champion: the one rule for
    the console, the certificates and the public pages.

    Empty until every game of the last stage is signed off or the organizer closes the tournament
    early (`done`: that first part, when the caller already has the stages and games). Players
    disqualified or without a game played are left out. The rows are the standings' own.
    """
    if done is None:
        done = tournament_done(list(tournament.stages.all()), list(tournament.games.only("stage", "status")))
    if not (done or tournament.status == Tournament.Status.FINISHED):
        return []
    return [row for row in tournament_standings(tournament)
            if row["rank"] <= PODIUM_PLACES and not row.get("disqualified") and row["games"]]
