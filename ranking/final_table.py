"""What decides the top places of a tournament that ends with a final table, for every page and PDF that shows
its standings or its podium.

Seed 004 §1.3.4 orders places 1–4 "in order of finish at the Final table", and under seed 001 §3 the top 4
"play a final game" whose winner is the champion (I-7, I-33). The standings' columns count the games before the
final, so a champion may show no win there: each reader is told which games decide what.
"""
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from championships.models import Stage, Tournament
from scheduling.models import Game

FINAL_TABLE_PLACES = 4
"""A final table seats the top 4 or the 4 semifinal winners (docs/rules.md §2)."""


def games_text(numbers) -> str:
    """"game 1", "games 1–3" (a run), "games 1, 2, 4": which games a figure counts, in words."""
    numbers = sorted(set(numbers))
    if not numbers:
        return _("no game yet")
    run = numbers == list(range(numbers[0], numbers[-1] + 1)) and len(numbers) > 2
    listed = f"{numbers[0]}–{numbers[-1]}" if run else ", ".join(map(str, numbers))
    return ngettext("game %(numbers)s", "games %(numbers)s", len(numbers)) % {"numbers": listed}


def decided_text(game: int | None, places: int = FINAL_TABLE_PLACES) -> str:
    """Which places the final table decides and how: by its game (`game`, once played) or still to come."""
    if game is not None:
        return _("Places 1–%(n)s are decided by the final table (game %(game)s), in its order of finish.") % {
            "n": places, "game": game}
    return _("Places 1–%(n)s will be decided by the final table, in its order of finish.") % {"n": places}


@dataclass(frozen=True)
class FinalTable:
    """A tournament's final table as its standings pages explain it."""

    game: int | None
    """The final's game number once it is seated."""
    played: bool
    """Its sheet is signed off: places 1–4 follow its order of finish."""
    counted: tuple[int, ...]
    """The numbers of the games the standings' columns count: every published game before the final."""
    places: int = FINAL_TABLE_PLACES

    @property
    def decided(self) -> str:
        return decided_text(self.game if self.played else None, self.places)

    @property
    def note(self) -> str:
        """What a standings table of the tournament says above its columns."""
        if self.played:
            others = _("The other columns count %(games)s only.")
        else:
            others = _("The other columns count %(games)s.")
        return f"{self.decided} {others % {'games': games_text(self.counted)}}"


def final_table(tournament: Tournament) -> FinalTable | None:
    """The tournament's final table (one query), or None when it has no stage of that kind."""
    rows = list(Stage.objects.filter(tournament=tournament).values_list("kind", "game_set__number", "game_set__status"))
    if not any(kind == Stage.Kind.FINAL for kind, _n, _status in rows):
        return None
    games = [(n, status, kind) for kind, n, status in rows if n is not None and status != Game.Status.PLANNED]
    final = next(((n, status) for n, status, kind in games if kind == Stage.Kind.FINAL), None)
    return FinalTable(final[0] if final else None, final is not None and final[1] == Game.Status.FINISHED,
                      tuple(sorted(n for n, _status, kind in games if kind != Stage.Kind.FINAL)))
