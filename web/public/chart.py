"""A player's rating history as an SVG line chart drawn on the server: the page needs no JavaScript, the chart
scales with the page (a viewBox, 100 % wide) and reads the same in every language (numbers only). Every coordinate
is text here already: a template would write a float as the page's language writes numbers ("12,5" in Arabic), which
SVG does not read."""
import math
from dataclasses import dataclass

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 12, 30
"""The plot area's margins: room for the axes' numbers."""


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    ordinal: str
    """The polyline's points: the rating (ordinal) after each game."""
    mu: str
    """The polyline's points: the skill estimate (mu) after each game."""
    y_ticks: list[tuple[str, str]]
    """(y, label) of each grid line."""
    x_ticks: list[tuple[str, int]]
    """(x, game number) of each game numbered along the bottom."""
    last: tuple[str, str]
    """(x, y) of the latest rating."""
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM


def _step(span: float) -> float:
    """A round tick step giving four to eight ticks over `span`."""
    raw = span / 5
    power: float = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)


def history_chart(points: list[tuple[float, float]], first_game: int) -> Chart | None:
    """`points`: (ordinal, mu) after each game, oldest first; `first_game`: the number (in the player's career) of
    the first game shown. None when there is nothing to draw."""
    if not points:
        return None
    values = [v for point in points for v in point]
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = low - 1, high + 1
    step = _step(high - low)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    count = len(points)

    def x(i: int) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * (i / (count - 1) if count > 1 else 0.5)

    def y(v: float) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (high - v) / (high - low)

    def line(values: list[float]) -> str:
        return " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))

    ticks = []
    value = low
    while value <= high + step / 2:
        ticks.append((f"{y(value):.1f}", f"{value:g}"))
        value += step
    shown = sorted({0, count - 1, *(round(count * k / 4) for k in (1, 2, 3))} & set(range(count)))
    last = (f"{x(count - 1):.1f}", f"{y(points[-1][0]):.1f}")
    return Chart(WIDTH, HEIGHT, line([p[0] for p in points]), line([p[1] for p in points]), ticks,
                 [(f"{x(i):.1f}", first_game + i) for i in shown], last)
