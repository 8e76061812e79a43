"""The map-study countdown of a game (seed 004 §1.1.7), and the timed turns a referee imposes on a table.

Only rules with study time (`Ruleset.map_study_minutes`: the world championship's) have the countdown: elsewhere
no screen shows one and the service refuses to start it (001, 000 and 003 have no study time).

The database holds the study clock's whole state (length, end time while it runs, time left while paused,
early end), so every screen computes the same remaining time from the server's clock, after a reload too.
The countdown is the study time after the board is revealed; games themselves have no time limit (001 §5,
004 §1.1.8). Timed turns keep only their lengths on the table: the tablet counts each turn from a tap.
"""
import datetime
import math
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.actions import Action
from audit.services import record_change
from championships.permissions import require_official
from championships.presets import PRESETS
from core.changes import announce
from engines.rulesets import ruleset_for

from .models import Game, Table

ACTIONS = {"start": Action.CLOCK_START, "pause": Action.CLOCK_PAUSE, "resume": Action.CLOCK_RESUME,
           "reset": Action.CLOCK_RESET, "end": Action.CLOCK_END}
"""The clock's buttons and the change each one records."""


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


def study_length(game: Game) -> int | None:
    """Seconds of map study for the game's stage, from its ruleset; None where the rules have no study time."""
    return ruleset_for(game.tournament.ruleset).map_study_seconds(game.stage.kind)


def clock_of(game: Game, now: datetime.datetime | None = None) -> StudyClock | None:
    """The clock's state at `now` (the server's time): no query beyond the game's own stage and tournament.

    None where the tournament's rules have no study time (whatever an earlier version of the app stored)."""
    length = study_length(game)
    if length is None:
        return None
    now = now or timezone.now()
    duration = game.study_seconds or length
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
        now = timezone.now()
        clock = clock_of(game, now)
        if clock is None:
            raise ValidationError(_("The rules of %(tournament)s have no map-study time after the board is revealed.")
                                  % {"tournament": game.tournament.name})
        if game.status != Game.Status.PUBLISHED:
            raise ValidationError(_("Game %(n)d is not being played: its map-study clock cannot change.")
                                  % {"n": game.number})
        state = clock.state
        before = _state(game)
        if action == "start":
            if state in ("running", "paused"):
                return game
            game.study_seconds = clock.duration
            game.study_ends_at = now + datetime.timedelta(seconds=game.study_seconds)
            game.study_paused_remaining = game.study_stopped_at = None
        elif action == "pause":
            if state == "paused":
                return game
            if state != "running":
                raise ValidationError(_("Only a running clock can be paused."))
            game.study_paused_remaining = clock.remaining  # a running clock's seconds left at `now`
            game.study_ends_at = None
        elif action == "resume":
            if state == "running":
                return game
            if state != "paused":
                raise ValidationError(_("Only a paused clock can be resumed."))
            game.study_ends_at = now + datetime.timedelta(seconds=clock.remaining)  # what the pause left
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
        record_change(user, game.tournament_id, ACTIONS[action], game, before=before, after=_state(game))
        announce(game.tournament_id)  # the public screens show the clock
    return game


TURN_SECONDS_MIN = 10
"""The shortest timed turn or placement the app accepts: anything shorter is a typing slip."""


@dataclass(frozen=True)
class TurnRules:
    """What a referee may impose on a table of the tournament: lengths in seconds (docs/rules.md §5)."""

    longest: int
    """The ruleset's limit, or the championship's edition's where it allows less (000 §5: one minute)."""
    offered: int
    """The length offered first: the recommended one (004 §1.1.8, 003), else the longest allowed (001 §5)."""
    reducible: bool
    finish_seconds: int | None
    """The slow player's time to finish the turn before every turn is timed (003, General rules 5)."""
    placements: bool
    """Initial placements may be timed too (004 §1.1.8)."""


def turn_rules(tournament) -> TurnRules:
    """The timed-turn limits of the tournament: its ruleset's, narrowed by the edition its championship follows.

    Seeds 000 and 001 share the `cnc-2022` ruleset (their rankings are the same) but not the longest turn, so
    the edition's limit lives with the preset the championship was created from (`Preset.turn_seconds_max`).
    """
    ruleset = ruleset_for(tournament.ruleset)
    longest = ruleset.turn_seconds_max
    preset = PRESETS.get(tournament.championship.preset) if tournament.championship_id else None
    if preset is not None and preset.turn_seconds_max is not None:
        longest = min(longest, preset.turn_seconds_max)
    return TurnRules(longest=longest, offered=min(ruleset.turn_seconds or longest, longest),
                     reducible=ruleset.turn_reducible, finish_seconds=ruleset.finish_turn_seconds,
                     placements=ruleset.timed_placements)


def _turn_errors(rules: TurnRules, seconds: int, placement_seconds: int | None) -> dict:
    errors = {}
    if not rules.reducible and seconds != rules.offered:
        errors["seconds"] = [_("Under these rules every timed turn lasts %(t)s.") % {"t": clock_text(rules.offered)}]
    elif seconds > rules.longest:
        errors["seconds"] = [_("A timed turn lasts at most %(t)s in this tournament.")
                             % {"t": clock_text(rules.longest)}]
    elif seconds < TURN_SECONDS_MIN:
        errors["seconds"] = [_("A timed turn lasts at least %(n)d seconds.") % {"n": TURN_SECONDS_MIN}]
    if placement_seconds is not None and not rules.placements:
        errors["placement_seconds"] = [_("These rules time the turns only, not the initial placements.")]
    elif placement_seconds is not None and not TURN_SECONDS_MIN <= placement_seconds <= rules.longest:
        errors["placement_seconds"] = [_("A timed placement lasts from %(min)d seconds to %(t)s.")
                                       % {"min": TURN_SECONDS_MIN, "t": clock_text(rules.longest)}]
    return errors


def set_timed_turns(table_id: int, on: bool, *, user, seconds: int | None = None,
                    placement_seconds: int | None = None) -> Table:
    """A referee imposes timed turns on one table, changes their length, or lifts them (001 §5, 004 §1.1.8, 003).

    `seconds` defaults to the length the rules offer (`turn_rules`) and is refused beyond their limit;
    `placement_seconds` times each initial placement where the rules allow it. Under Lord of Catan the
    audit entry also records the slow player's minute to finish (003, General rules 5). Pressing the same
    switch twice changes nothing (and writes no audit entry).
    """
    with transaction.atomic():
        table = (Table.objects.select_for_update(of=("self",))
                 .select_related("game__tournament__championship", "game__stage").get(pk=table_id))
        game = table.game
        require_official(user, game.tournament)
        if game.status != Game.Status.PUBLISHED:
            raise ValidationError(_("Game %(n)d is not being played: its tables have no turn timer.")
                                  % {"n": game.number})
        rules = turn_rules(game.tournament)
        if on:
            seconds = rules.offered if seconds is None else seconds
            if errors := _turn_errors(rules, seconds, placement_seconds):
                raise ValidationError(errors)
        else:
            seconds = placement_seconds = None
        if (table.turn_seconds, table.placement_seconds) == (seconds, placement_seconds):
            return table
        before = {"turn_seconds": table.turn_seconds, "placement_seconds": table.placement_seconds}
        table.turn_seconds, table.placement_seconds = seconds, placement_seconds
        table.save(update_fields=["turn_seconds", "placement_seconds"])
        announce(game.tournament_id)  # the phones of the players at the table show them (web/players/seat.py)
        after = {"turn_seconds": seconds, "placement_seconds": placement_seconds}
        if on and rules.finish_seconds and before["turn_seconds"] is None:
            after["finish_seconds"] = rules.finish_seconds
        record_change(user, game.tournament_id, Action.TURNS_ON if on else Action.TURNS_OFF, table, before=before,
                      after=after)
    return table
