"""Optional fairness limits on random boards, which an organizer may switch on for a championship.

Pure Python, no Django. Each limit is a key; `broken_limits` says which a board breaks (so a typed code can be
refused with the reason), `generate_fair_board` draws a board that keeps them all. The fast way: a board's
number layout only depends on where the desert is, so once the numbers meet the spacing rules, the other 18
resources are reshuffled in place (cheap) until the limits that pair numbers with resources hold.
"""
from __future__ import annotations

import random
from collections.abc import Iterable

from .generator import (
    HARBOR_COUNTS,
    HARBOR_SLOTS,
    LAND,
    NUMBER_COUNTS,
    RED_NUMBERS,
    RESOURCE_COUNTS,
    Board,
    Harbor,
    Hex,
    _multiset,
    _numbers_ok,
)
from .svg import pips

EQUAL_NUMBERS_APART = "equal_numbers_apart"
RED_NUMBERS_SPREAD = "red_numbers_spread"
TWO_AND_TWELVE_APART = "two_and_twelve_apart"
BALANCED_PIPS = "balanced_pips"
LIMITS = (EQUAL_NUMBERS_APART, RED_NUMBERS_SPREAD, TWO_AND_TWELVE_APART, BALANCED_PIPS)
"""In the order an organizer reads them."""

PIPS_PER_HEX = (2.5, 4.0)
"""Balanced: every resource's average pips per hex lies in this range (the island's average is 58/18 ≈ 3.2)."""

MAX_TRIES = 10_000
"""Resource reshuffles per number layout before the numbers are drawn again."""


class LimitsNotMet(ValueError):
    """No board keeping these limits was found; `limits` names the ones that failed most often."""

    def __init__(self, limits: list[str]):
        super().__init__("no board meets: " + ", ".join(limits))
        self.limits = limits


def _by_resource(resources: list[str], numbers: list[int | None]) -> dict[str, list[int]]:
    grouped: dict[str, list[int]] = {}
    for resource, number in zip(resources, numbers, strict=True):
        if number is not None:
            grouped.setdefault(resource, []).append(number)
    return grouped


def _broken(resources: list[str], numbers: list[int | None], limits: Iterable[str]) -> list[str]:
    broken = []
    grouped = _by_resource(resources, numbers)
    for limit in limits:
        if limit == EQUAL_NUMBERS_APART:
            ok = _numbers_ok(numbers, strict=True)
        elif limit == RED_NUMBERS_SPREAD:
            ok = all(sum(n in RED_NUMBERS for n in ns) <= 1 for ns in grouped.values())
        elif limit == TWO_AND_TWELVE_APART:
            ok = not any(2 in ns and 12 in ns for ns in grouped.values())
        elif limit == BALANCED_PIPS:
            low, high = PIPS_PER_HEX
            ok = all(low <= sum(pips(n) for n in ns) / len(ns) <= high for ns in grouped.values())
        else:
            raise ValueError(f"unknown board limit {limit!r}; known: {', '.join(LIMITS)}")
        if not ok:
            broken.append(limit)
    return broken


def _asked(limits: Iterable[str]) -> list[str]:
    """The limits asked for, in `LIMITS` order; ValueError naming any unknown one."""
    wanted = set(limits)
    unknown = wanted - set(LIMITS)
    if unknown:
        raise ValueError(f"unknown board limit(s) {', '.join(sorted(unknown))}; known: {', '.join(LIMITS)}")
    return [limit for limit in LIMITS if limit in wanted]


def broken_limits(board: Board, limits: Iterable[str]) -> list[str]:
    """The limits (of those asked for) that `board` breaks, in `LIMITS` order."""
    return _broken([h.resource for h in board.hexes], [h.number for h in board.hexes], _asked(limits))


def generate_fair_board(seed: int, limits: Iterable[str], *, max_layouts: int = 50) -> Board:
    """The board for `seed` keeping every limit asked for (same seed and limits, same board).

    Without limits this is a different draw from `generate_board(seed)`, so a seed names a board only
    together with its limits; the stored code is what recreates it.
    """
    asked = _asked(limits)
    rng = random.Random(seed)
    resources = _multiset(RESOURCE_COUNTS)
    tokens = _multiset(NUMBER_COUNTS)
    failures: dict[str, int] = {}
    for _layout in range(max_layouts):
        rng.shuffle(resources)
        while True:
            rng.shuffle(tokens)
            draw = iter(tokens)
            numbers = [None if resource == "desert" else next(draw) for resource in resources]
            if _numbers_ok(numbers, strict=True):
                break
        desert = resources.index("desert")
        others = [r for r in resources if r != "desert"]
        for _try in range(MAX_TRIES):
            placed = others[:desert] + ["desert"] + others[desert:]
            broken = _broken(placed, numbers, asked)
            if not broken:
                return _board(placed, numbers, rng)
            for limit in broken:
                failures[limit] = failures.get(limit, 0) + 1
            rng.shuffle(others)
    raise LimitsNotMet(sorted(failures, key=lambda limit: -failures[limit]))


def _board(resources: list[str], numbers: list[int | None], rng: random.Random) -> Board:
    kinds = _multiset(HARBOR_COUNTS)
    rng.shuffle(kinds)
    hexes = tuple(Hex(q, r, res, num) for (q, r), res, num in zip(LAND, resources, numbers, strict=True))
    harbors = tuple(Harbor(q, r, side, kind) for (q, r, side), kind in zip(HARBOR_SLOTS, kinds, strict=True))
    return Board(hexes, harbors)
