"""Game durations from the start and end times written on a record sheet."""
from datetime import date, datetime, time, timedelta


def game_minutes(start: time | None, end: time | None) -> int | None:
    """Duration in whole minutes; a game that passes midnight still has a positive duration.

    None when either time is missing or both are the same (no duration can be told).
    """
    if start is None or end is None or start == end:
        return None
    day = date(2000, 1, 1)  # any day: two times of day on a clock, no time zone
    delta = datetime.combine(day, end) - datetime.combine(day, start)
    if delta <= timedelta(0):
        delta += timedelta(days=1)
    return int(delta.total_seconds() // 60)
