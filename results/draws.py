"""Recorded card draws and drawings of lots that separate players tied after every tiebreaker."""
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from audit.services import record_change
from championships.models import Entry, Stage, Tournament
from championships.permissions import require_official

from .models import TiebreakDraw, TiebreakDrawPlace
from .signals import announce_after_commit


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
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        draw = TiebreakDraw.objects.create(tournament=tournament, stage=stage, method=method, note=note.strip(),
                                           recorded_by=user)
        TiebreakDrawPlace.objects.bulk_create(
            TiebreakDrawPlace(draw=draw, entry_id=entry, place=place) for place, entry in enumerate(entry_ids, 1)
        )
        record_change(user, tournament.pk, f"draw.{method}", draw,
              after={"order": [names[e] for e in entry_ids], "note": draw.note})
        announce_after_commit(tournament.pk)
    return draw
