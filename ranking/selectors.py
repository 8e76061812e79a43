"""Reads for the organizer's qualification page (standings themselves are read through `standings`)."""
from dataclasses import dataclass, field

from championships.models import Entry, Tournament

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


def qualification_page(tournament: Tournament) -> QualificationPage:
    finalists = list(tournament.entries.filter(source_tournament__isnull=False).select_related(
        "player", "source_tournament", "replaces__player").order_by("source_tournament__date", "source_rank"))
    if tournament.kind != Tournament.Kind.QUALIFIER:
        return QualificationPage(finalists=finalists)
    rows = tournament_standings(tournament)
    return QualificationPage(
        rows=rows[: tournament.advance_count + SHOWN_BELOW_CUTOFF],
        blocking=[g for g in tied_groups(rows) if straddles_cutoff(g, tournament.advance_count)],
        advanced=list(tournament.qualified_entries.select_related("player", "tournament")),
        finalists=finalists,
    )
