"""How full a tournament players register for is (championships/signup.py writes every change): the places taken
and left, the waiting list in its order, and whether play has begun, after which nobody registers or is promoted.
"""
from .models import ACTIVE_STATUSES, Entry, Registration, Tournament

LIVE = (Registration.Status.UNCONFIRMED, Registration.Status.PENDING, Registration.Status.WAITING,
        Registration.Status.ENTERED)
"""Registrations that hold a place, wait for one or may still: one per email and tournament."""


def games_published(tournament: Tournament) -> bool:
    """A game of the tournament is published (the scheduling app's games, read by their relation's name)."""
    return Tournament.objects.filter(pk=tournament.pk, games__status__in=["published", "finished"]).exists()


def seating_made(tournament: Tournament) -> bool:
    return Tournament.objects.filter(pk=tournament.pk, games__isnull=False).exists()


def places_taken(tournament: Tournament) -> int:
    return Entry.objects.filter(tournament=tournament, status__in=ACTIVE_STATUSES).count()


def places_left(tournament: Tournament) -> int | None:
    """Free places; None for open entry (no capacity)."""
    if tournament.capacity is None:
        return None
    return max(tournament.capacity - places_taken(tournament), 0)


def waiting(tournament: Tournament):
    """The waiting list, first in line first."""
    return (Registration.objects.filter(tournament=tournament, status=Registration.Status.WAITING)
            .order_by("confirmed_at", "pk"))


def waiting_position(registration: Registration) -> int | None:
    if registration.status != Registration.Status.WAITING:
        return None
    return waiting(registration.tournament).filter(confirmed_at__lt=registration.confirmed_at).count() + 1
