"""What the referees' queue, a player's phone and the organizer's list show of calls, in a fixed number of queries."""
import datetime
import math
from dataclasses import dataclass
from statistics import median

from django.db.models import QuerySet
from django.utils import timezone

from championships.models import Tournament

from .models import PAUSING, Call


def _calls() -> QuerySet[Call]:
    return Call.objects.select_related("table__game", "placed_by__player", "taken_by", "resolved_by")


def queue(tournament: Tournament) -> list[Call]:
    """The tournament's open calls, the longest waiting first."""
    return list(_calls().filter(tournament=tournament, resolved_at__isnull=True).order_by("placed_at", "pk"))


def table_calls(table_id: int) -> list[Call]:
    """Every call of a table (a table is one game's): what the players sitting there see, newest first."""
    return list(_calls().filter(table_id=table_id).order_by("-placed_at", "-pk"))


def wait_seconds(call: Call, now: datetime.datetime | None = None) -> int:
    """From the call to a referee going (still waiting: until `now`)."""
    until = call.first_taken_at or now or timezone.now()
    return max(0, int((until - call.placed_at).total_seconds()))


@dataclass(frozen=True)
class GameWaits:
    game: int
    calls: int
    answered: int
    median_seconds: int | None
    p95_seconds: int | None
    """The 95th percentile by nearest rank: the wait 95 calls in 100 stayed within."""


def percentile(values: list[int], share: float) -> int:
    """Nearest rank: the smallest value at least `share` of the values do not exceed."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def day_calls(tournament: Tournament, day: datetime.date) -> list[Call]:
    """Every call of the tournament placed on `day` (the site's time zone), in the order they came."""
    return list(_calls().filter(tournament=tournament, placed_at__date=day).order_by("placed_at", "pk"))


def last_call_day(tournament: Tournament) -> datetime.date | None:
    """The day (the site's time zone) of the tournament's latest call, if it has any."""
    latest = Call.objects.filter(tournament=tournament).order_by("-placed_at").values_list("placed_at", flat=True)
    return timezone.localdate(latest[0]) if latest else None


def waits_by_game(calls: list[Call]) -> list[GameWaits]:
    """Per game, the median and 95th-percentile wait of the calls a referee went to."""
    games: dict[int, list[Call]] = {}
    for call in calls:
        games.setdefault(call.table.game.number, []).append(call)
    rows = []
    for number, of_game in sorted(games.items()):
        waits = [wait_seconds(c) for c in of_game if c.first_taken_at is not None]
        rows.append(GameWaits(number, len(of_game), len(waits), int(median(waits)) if waits else None,
                              percentile(waits, 0.95) if waits else None))
    return rows


@dataclass(frozen=True)
class Pause:
    """The game at a table standing still for a call (`PAUSING`): from the call until it was resolved."""

    started_at: datetime.datetime
    ended_at: datetime.datetime | None
    """None while the call is open: the game is still paused."""
    reason: str

    @property
    def minutes(self) -> int | None:
        if self.ended_at is None:
            return None
        return max(1, round((self.ended_at - self.started_at).total_seconds() / 60))  # to the nearest minute


def table_pauses(table_id: int) -> list[Pause]:
    """The pauses of a table's game, in the order they began: what its record sheet's history shows."""
    return [Pause(call.placed_at, call.resolved_at, call.get_reason_display())
            for call in Call.objects.filter(table_id=table_id, reason__in=PAUSING).order_by("placed_at", "pk")]
