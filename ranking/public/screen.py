"""The projector: standings slides and "find your table" slides, in parts for a big game."""

from dataclasses import dataclass

from championships.models import Tournament
from ranking.public.names import namesake_numbers
from ranking.public.standings import PublicStandings, StandingRow, public_standings
from results.selectors import recent_announcements
from scheduling.models import Game, Seat

STANDINGS_PER_SLIDE = 10
NAMES_PER_SLIDE = 36
STANDINGS_SLIDES = 6
"""The projector shows the top 60; everyone finds the rest on their phone."""
SEATING_SLIDES_PER_PART = 8
""""Find your table" slides on one projector page (288 names). A big game's seating comes in parts, one page
each (`?part=`): the projector moves on to the next part once it has shown these slides, so a page stays small
(3,000 players: 500 KB in one page, about 100 KB a part before compression) and each part is cached alone."""


@dataclass(frozen=True)
class ScreenPage:
    standings: PublicStandings
    standing_slides: list[list[StandingRow]]
    game: Game | None
    seating_slides: list[list[tuple[str, int, int, int | None]]]
    """(name, table, position, namesake number), alphabetically: this part's slides."""
    announcements: list
    part: int = 1
    parts: int = 1
    seating_total: int = 0
    """"Find your table" slides in all parts."""

    @property
    def first_slide(self) -> int:
        """The number of this part's first "find your table" slide, less one (slides are numbered across parts)."""
        return (self.part - 1) * SEATING_SLIDES_PER_PART

    @property
    def part_numbers(self) -> range:
        return range(1, self.parts + 1)

    @property
    def next_part(self) -> int:
        """The part the projector shows next (after the last, the first again)."""
        return self.part % self.parts + 1


def screen_page(tournament: Tournament, part: int = 1) -> ScreenPage:
    standings = public_standings(tournament, per_page=STANDINGS_PER_SLIDE * STANDINGS_SLIDES)
    top = standings.rows
    slides = [top[i:i + STANDINGS_PER_SLIDE] for i in range(0, len(top), STANDINGS_PER_SLIDE)]
    game = tournament.games.filter(status=Game.Status.PUBLISHED).order_by("number").first()
    names = []
    if game is not None:
        namesakes = namesake_numbers(tournament)
        names = [(name, table, position, namesakes.get(entry)) for name, table, position, entry, _key in sorted(
            Seat.objects.filter(game=game).values_list("entry__player__name", "table__number", "position",
                                                       "entry_id", "entry__player__sort_key"),
            key=lambda s: bytes(s[4]))]
    seating = [names[i:i + NAMES_PER_SLIDE] for i in range(0, len(names), NAMES_PER_SLIDE)]
    parts = max(1, -(-len(seating) // SEATING_SLIDES_PER_PART))
    part = min(max(part, 1), parts)
    shown = seating[(part - 1) * SEATING_SLIDES_PER_PART: part * SEATING_SLIDES_PER_PART]
    return ScreenPage(standings, slides, game, shown, recent_announcements(tournament)[:5], part, parts, len(seating))
