"""Recorded card draws and drawings of lots that separate players tied after every tiebreaker."""
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from audit.actions import Action
from audit.services import record_change
from championships.models import Entry, Stage, Tournament
from championships.permissions import require_official
from core.changes import announce

from .limits import length_errors
from .models import TiebreakDraw, TiebreakDrawPlace

ACTIONS: dict[str, Action] = {TiebreakDraw.Method.CARDS: Action.DRAW_CARDS, TiebreakDraw.Method.LOTS: Action.DRAW_LOTS}
"""The change recorded for each way of drawing."""


def record_draw(tournament: Tournament, entry_ids: list[int], *, user, method: str, note: str = "",
                stage: Stage | None = None) -> TiebreakDraw:
    """Store the order the draw gave (best first); the ranking uses it for exactly these players."""
    require_official(user, tournament)
    errors = {}
    if method not in TiebreakDraw.Method.values:
        errors["method"] = [_("Choose a card draw or a drawing of lots.")]
    if len(entry_ids) < 2:
        errors["order"] = [_("A draw separates at least two players.")]
    elif len(set(entry_ids)) != len(entry_ids):
        errors["order"] = [_("Each player appears once in the draw's order.")]
    names = dict(Entry.objects.filter(tournament=tournament, pk__in=entry_ids).values_list("pk", "player__name"))
    if len(names) != len(set(entry_ids)):
        errors["order"] = [_("Every player of the draw must be entered in this tournament.")]
    errors.update(length_errors(note=note.strip()))
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        draw = TiebreakDraw.objects.create(tournament=tournament, stage=stage, method=method, note=note.strip(),
                                           recorded_by=user)
        TiebreakDrawPlace.objects.bulk_create(
            TiebreakDrawPlace(draw=draw, entry_id=entry, place=place) for place, entry in enumerate(entry_ids, 1)
        )
        record_change(user, tournament.pk, ACTIONS[method], draw,
              after={"order": [names[e] for e in entry_ids], "note": draw.note})
        announce(tournament.pk, results=True)
    return draw


@dataclass(frozen=True)
class FirstDrawChooser:
    """Who chooses who draws first in a card draw among tied players (seed 001 §4).

    "The referee will shuffle a deck of development cards and the youngest player will get to
    decide if he/she wishes to start drawing or if he/she wishes that their opponent starts."
    """

    youngest: tuple[str, ...]
    """The youngest of the players with a recorded birth date: one name, or several born the same day."""
    born: date | None
    missing: tuple[str, ...]
    """Players with no birth date recorded: the youngest cannot be named for sure until they are asked."""

    @property
    def certain(self) -> bool:
        return len(self.youngest) == 1 and not self.missing


def youngest_chooses(players: Sequence[tuple[str, date | None]]) -> FirstDrawChooser:
    """The youngest of (name, date of birth) pairs; names without a date are reported, not guessed."""
    known = [(born, name) for name, born in players if born is not None]
    missing = tuple(name for name, born in players if born is None)
    if not known:
        return FirstDrawChooser((), None, missing)
    born = max(b for b, _name in known)
    return FirstDrawChooser(tuple(name for b, name in known if b == born), born, missing)


def first_draw_choosers(groups: Sequence[Sequence[int]]) -> list[FirstDrawChooser]:
    """For each group of tied entries, who chooses who draws first: one query for every group."""
    ids = {pk for group in groups for pk in group}
    people = {pk: (name, born) for pk, name, born in
              Entry.objects.filter(pk__in=ids).values_list("pk", "player__name", "player__date_of_birth")}
    return [youngest_chooses([people[pk] for pk in group if pk in people]) for group in groups]
