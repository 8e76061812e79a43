"""When a tournament's day starts, and its calendar event: the official start (a moment: told to players the day
before, lateness counted from it), the venue, and for one player the tables of the games published so far.
Games have no start times of their own: the event is the tournament's official start, or its whole day when no
start time is set."""
from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext as _

from championships.models import Entry, Tournament
from core.ics import Event

from .models import Game, Seat


def official_start(tournament: Tournament) -> datetime | None:
    if tournament.date is None or tournament.official_start is None:
        return None
    return timezone.make_aware(datetime.combine(tournament.date, tournament.official_start))


def tournament_event(tournament: Tournament, *, url: str = "", entry: Entry | None = None) -> Event | None:
    """The tournament's day as one calendar event (None without a date); with `entry`, the player's tables too."""
    if tournament.date is None:
        return None
    start = official_start(tournament)
    lines, sequence = [], 0
    if start is not None:
        lines.append(_("Official start: be there and check in before it."))
    if entry is not None:
        seats = list(Seat.objects.filter(entry=entry).exclude(game__status=Game.Status.PLANNED)
                     .select_related("game", "table").order_by("game__number"))
        lines += [_("Game %(game)d: table %(table)d, position %(position)d.")
                  % {"game": seat.game.number, "table": seat.table.number, "position": seat.position}
                  for seat in seats]
        sequence = len(seats)
    else:
        sequence = tournament.games.exclude(status=Game.Status.PLANNED).count()
    who = f"-entry-{entry.pk}" if entry is not None else ""
    return Event(uid=f"tournament-{tournament.pk}{who}@catan-tournaments",
                 summary=tournament.name, start=start or tournament.date, description="\n".join(lines),
                 location=", ".join(part for part in (tournament.venue, tournament.city) if part), url=url,
                 sequence=sequence)
