"""Reads of championships and tournaments for the public pages and the API."""
from django.db.models import QuerySet

from .models import Tournament


def tournament_list() -> QuerySet[Tournament]:
    """Every tournament with its championship, latest first."""
    return Tournament.objects.select_related("championship").order_by("-date", "name")
