"""Reads of championships and tournaments for the public pages and the API, and finding a player to enter."""
from dataclasses import dataclass
from datetime import date

from django.db.models import QuerySet

from core.names import fold

from .models import Championship, Player, Tournament


def tournament_list() -> QuerySet[Tournament]:
    """Every tournament with its championship, latest first."""
    return Tournament.objects.select_related("championship").reverse()


@dataclass(frozen=True)
class HomePage:
    current: list[Tournament]
    upcoming: list[Tournament]
    past: list[Tournament]
    championships: list[Championship]


def home_page() -> HomePage:
    """Tournaments under way, to come (soonest first) and over (latest first), and their championships.

    By status, not by date: a tournament whose day has passed but that is not closed is not over yet.
    """
    tournaments = list(Tournament.objects.select_related("championship"))
    current, upcoming, past = [], [], []
    for t in tournaments:
        if t.status == Tournament.Status.RUNNING:
            current.append(t)
        elif t.status == Tournament.Status.FINISHED:
            past.append(t)
        else:
            upcoming.append(t)
    championships = list({t.championship_id: t.championship for t in tournaments if t.championship}.values())
    championships.sort(key=lambda c: (-c.year, c.name))
    return HomePage(current, upcoming, past[::-1], championships)


def find_player(*, email: str = "", name: str = "", born: date | None = None) -> Player | None:
    """The one registered player with this exact email (any case), or this name (as every name is compared,
    `core.names.fold`) and date of birth.

    How an organizer finds a player of another championship to enter: what they must already know, never a
    list to browse (docs/interfaces.md, Roles). Namesakes born the same day are found by email only.
    """
    email = email.strip()
    if email:
        return Player.objects.filter(email__iexact=email).first()
    if not (name.strip() and born):
        return None
    same = list(Player.objects.filter(date_of_birth=born, search_name=fold(name))[:2])
    return same[0] if len(same) == 1 else None
