"""Namesakes told apart wherever two identical names appear in one list (issue 20 item 3).

Two players may share a name; the registration tells them apart by email and date of birth, which
are personal data. So a list shows, after each namesake's name:
- to the tournament's organizers, a detail they may see: the birth year, else the country, else the email;
- to everyone else, a number: the namesakes' order of entry in the tournament ("Ann Lee (2)"). It says
  nothing about the person, stays the same all tournament long (a later entry takes the next number),
  and a player learns theirs at the check-in desk or on their private page.
Names are compared as the import compares them (`core.names.fold`).
"""
from collections.abc import Iterable, Set

from core.names import fold

from .models import Player


def entry_numbers(entries: Iterable[tuple[int, str]]) -> dict[int, int]:
    """Entry id → its number among a tournament's namesakes, for entries whose name another shares.

    `entries`: (entry id, player name) of every entry of the tournament, so the numbers do not depend on the page.
    """
    groups: dict[str, list[int]] = {}
    for pk, name in sorted(entries):
        groups.setdefault(fold(name), []).append(pk)
    return {pk: n for pks in groups.values() if len(pks) > 1 for n, pk in enumerate(pks, start=1)}


def staff_details(players: Iterable[Player], *, private: Set[int] = frozenset()) -> dict[int, str]:
    """Player id → what tells them apart from a namesake in the same list, for the organizers' pages.

    `private`: ids of players whose birth date and email the reader may not see (another championship's); they are
    told apart by the rest. The players' countries are read through `player.country` (select it with the players).
    """
    groups: dict[str, dict[int, Player]] = {}
    for player in players:
        groups.setdefault(fold(player.name), {})[player.pk] = player
    details: dict[int, str] = {}
    for by_pk in groups.values():
        same = list(by_pk.values())
        if len(same) < 2:
            continue
        for describe in (_birth_year, _country, _email, _id):
            values = [describe(p) if describe in _PUBLIC or p.pk not in private else "" for p in same]
            if all(values) and len(set(values)) == len(values):
                details.update((p.pk, value) for p, value in zip(same, values))
                break
    return details


def _birth_year(player: Player) -> str:
    return str(player.date_of_birth.year) if player.date_of_birth else ""


def _country(player: Player) -> str:
    return player.country.code if player.country is not None else ""


def _email(player: Player) -> str:
    return player.email


def _id(player: Player) -> str:
    return f"#{player.pk}"


_PUBLIC = (_country, _id)
"""What tells namesakes apart without anything personal."""
