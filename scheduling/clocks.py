"""The map-study countdown of a game (seed 004 §1.1.7): one clock for all tables, kept by the server.

The database holds the whole state (length, end time while it runs, time left while paused, early end),
so every screen computes the same remaining time from the server's clock, after a reload too. The
countdown is the study time after the board is revealed; games themselves have no time limit (001 §6).
"""
import datetime
import math
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.services import record_change
from championships.permissions import require_official
from engines.rulesets import ruleset_for

from .models import Game, Table

ACTIONS = ("start", "pause", "resume", "reset", "end")


def clock_text(seconds: int) -> str:
    """Minutes and seconds as the clocks show them: "4:05"."""
    return f"{seconds // 60}:{seconds % 60:02d}"


@dataclass(frozen=True)
class StudyClock:
    """What a page shows: `state` is idle, running, paused or ended; times are the server's."""

    state: str
    duration: int
    remaining: int
    ends_at: datetime.datetime | None
    server_now: datetime.datetime

    @property
    def server_now_ms(self) -> int:
        return int(self.server_now.timestamp() * 1000)

    @property
    def ends_at_ms(self) -> int | None:
        return None if self.ends_at is None else int(self.ends_at.timestamp() * 1000)

    @property
    def remaining_text(self) -> str:
        """Minutes and seconds left, as the clock shows them: "4:05"."""
        return clock_text(self.remaining)

    @property
    def minutes(self) -> int:
        return self.duration // 60

    @property
    def shown(self) -> bool:
        """Public screens show a clock once it has started."""
        return self.state != "idle"


def study_length(game: Game) -> int:
    """Seconds of map study for the game's stage, from its ruleset."""
    return ruleset_for(game.tournament.ruleset).map_study_seconds(game.stage.kind)


def clock_of(game: Game, now: datetime.datetime | None = None) -> StudyClock:
    """The clock's state at `now` (the server's time): no query beyond the game's own stage and tournament."""
    now = now or timezone.now()
    duration = game.study_seconds or study_length(game)
    if game.study_stopped_at is not None:
        return StudyClock("ended", duration, 0, None, now)
    if game.study_ends_at is not None:
        left = math.ceil((game.study_ends_at - now).total_seconds())
        if left <= 0:
            return StudyClock("ended", duration, 0, game.study_ends_at, now)
        return StudyClock("running", duration, left, game.study_ends_at, now)
    if game.study_paused_remaining is not None:
        return StudyClock("paused", duration, game.study_paused_remaining, None, now)
    return StudyClock("idle", duration, duration, None, now)


def _state(game: Game) -> dict:
    return {"seconds": game.study_seconds, "ends_at": game.study_ends_at.isoformat() if game.study_ends_at else None,
            "paused_remaining": game.study_paused_remaining}


def change_clock(game_id: int, action: str, *, user) -> Game:
    """Start, pause, resume, reset or end early the map-study countdown of a published game.

    A button pressed twice (two referees at once, a double tap) finds the clock already in that state and
    changes nothing; a move the clock cannot make (pause a clock that is not running) is refused.
    """
    if action not in ACTIONS:
        raise ValidationError(_("Unknown clock action."))
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).select_related("tournament", "stage").get(pk=game_id)
        require_official(user, game.tournament)
        if game.status != Game.Status.PUBLISHED:
            raise ValidationError(_("Game %(n)d is not being played: its map-study clock cannot change.")
                                  % {"n": game.number})
        now = timezone.now()
        state = clock_of(game, now).state
        before = _state(game)
        if action == "start":
            if state in ("running", "paused"):
                return game
            game.study_seconds = study_length(game)
            game.study_ends_at = now + datetime.timedelta(seconds=game.study_seconds)
            game.study_paused_remaining = game.study_stopped_at = None
        elif action == "pause":
            if state == "paused":
                return game
            if state != "running":
                raise ValidationError(_("Only a running clock can be paused."))
            game.study_paused_remaining = math.ceil((game.study_ends_at - now).total_seconds())
            game.study_ends_at = None
        elif action == "resume":
            if state == "running":
                return game
            if state != "paused":
                raise ValidationError(_("Only a paused clock can be resumed."))
            game.study_ends_at = now + datetime.timedelta(seconds=game.study_paused_remaining)
            game.study_paused_remaining = None
        elif action == "end":
            if state == "ended":
                return game
            if state == "idle":
                raise ValidationError(_("The clock has not started."))
            game.study_stopped_at = now
            game.study_ends_at = game.study_paused_remaining = None
        else:  # reset
            if state == "idle":
                return game
            game.study_seconds = game.study_ends_at = game.study_paused_remaining = game.study_stopped_at = None
        game.save(update_fields=["study_seconds", "study_ends_at", "study_paused_remaining", "study_stopped_at"])
        record_change(user, game.tournament_id, f"clock.{action}", game, before=before, after=_state(game))
    return game


def set_timed_turns(table_id: int, on: bool, *, user) -> Table:
    """A referee imposes timed turns on one table (001 §6, 004 §1.1.8), or lifts them; the length is the ruleset's.

    Pressing the same switch twice changes nothing (and writes no audit entry).
    """
    with transaction.atomic():
        table = (Table.objects.select_for_update(of=("self",)).select_related("game__tournament", "game__stage")
                 .get(pk=table_id))
        game = table.game
        require_official(user, game.tournament)
        if game.status != Game.Status.PUBLISHED:
            raise ValidationError(_("Game %(n)d is not being played: its tables have no turn timer.")
                                  % {"n": game.number})
        seconds = ruleset_for(game.tournament.ruleset).turn_seconds if on else None
        if table.turn_seconds == seconds:
            return table
        before = {"turn_seconds": table.turn_seconds}
        table.turn_seconds = seconds
        table.save(update_fields=["turn_seconds"])
        record_change(user, game.tournament_id, "turns.on" if on else "turns.off", table, before=before,
                      after={"turn_seconds": seconds})
    return table
