"""Skill ratings across events: each table's finishing order rated by OpenSkill (Weng–Lin, Plackett–Luce model).

Why a library: the Weng–Lin update (and its handling of ties) is easy to get subtly wrong by hand; `openskill` is a
maintained, tested, MIT-licensed implementation with no dependencies, compiled with mypyc (a table in about 30 µs).
Plackett–Luce rates a whole finishing order at once (1st beat 2nd, 3rd and 4th; 2nd beat 3rd and 4th; …), which is
what a four-player CATAN table gives, rather than a set of pairwise results.

A player's rating is a belief about their skill: `mu` (the estimate) and `sigma` (how unsure it is). Lists rank by
the ordinal mu − 3σ, a cautious estimate that rises both by winning and by playing more. The model keeps the
library's defaults (mu 25, σ 25/3, β 25/6, τ 25/300), so figures compare with other OpenSkill sites.

Deterministic: the same tables in the same order give the same floats; each table is rated with its players in id
order, so neither the sheet's seat order nor the database's row order changes a result.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce

PlayerId = int
"""Players are told apart by their database id (and rated in that order)."""

MODEL = PlackettLuce()
"""The library's defaults (docs/guide.md explains them in a player's words)."""
Z = 3
"""The ordinal is mu − Z·σ: about 99.7 % sure the player is at least that strong."""
PROVISIONAL_GAMES = 10
"""A player with fewer rated games is marked provisional: σ is still large and the ordinal moves a lot."""


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - Z * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


INITIAL = Rating(MODEL.mu, MODEL.sigma, 0)
"""Everyone's rating before their first rated game."""


@dataclass(frozen=True, slots=True)
class Table:
    """One signed-off table: its place in the fixed order and each player's place (1 = winner; ties share)."""

    key: str
    places: tuple[tuple[PlayerId, int], ...]
    """(player, place), in player order."""


@dataclass(frozen=True, slots=True)
class Change:
    player: PlayerId
    place: int
    before: Rating
    after: Rating


def rate_table(table: Table, ratings: Mapping[PlayerId, Rating]) -> list[Change]:
    """The table's players' new ratings, from `ratings` (INITIAL for a player not in it)."""
    before = [ratings.get(player, INITIAL) for player, _place in table.places]
    teams = [[MODEL.create_rating([r.mu, r.sigma])] for r in before]
    rated = MODEL.rate(teams, ranks=[float(place) for _player, place in table.places])
    return [Change(player, place, old, Rating(team[0].mu, team[0].sigma, old.games + 1))
            for (player, place), old, team in zip(table.places, before, rated)]


def replay(tables: Iterable[Table], ratings: dict[PlayerId, Rating]) -> Iterator[tuple[Table, list[Change]]]:
    """Rate `tables` in the order given, updating `ratings` in place; yields each table with its changes."""
    for table in tables:
        changes = rate_table(table, ratings)
        for change in changes:
            ratings[change.player] = change.after
        yield table, changes
