"""Reads of championships and tournaments for the public pages and the API."""
from dataclasses import dataclass

from django.db.models import QuerySet

from .models import Championship, Tournament


def tournament_list() -> QuerySet[Tournament]:
    """Every tournament with its championship, latest first."""
    return Tournament.objects.select_related("championship").order_by("-date", "name")


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
    tournaments = list(Tournament.objects.select_related("championship").order_by("date", "name"))
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
