"""The events the other apps announce, each with the public facts a receiver needs (numbers and addresses: the
players, their results and the standings are on the public pages and API v1 they point to, never in the body)."""
from datetime import datetime

from django.urls import reverse

from championships.models import Tournament
from core.site import absolute

from .models import Event
from .services import emit


def game_published(tournament: Tournament, number: int, stage: str) -> None:
    emit(tournament, Event.GAME_PUBLISHED, {
        "game": number, "stage": stage,
        "url": absolute(reverse("public-game", args=[tournament.slug, number])),
        "seating": absolute(reverse("api-v1:seating", kwargs={"slug": tournament.slug, "number": number}))})


def sheet_signed_off(tournament: Tournament, game: int, table: int) -> None:
    emit(tournament, Event.SHEET_SIGNED_OFF, {
        "game": game, "table": table, "url": absolute(reverse("public-game", args=[tournament.slug, game]))})


def standings_changed(tournament_id: int) -> None:
    tournament = Tournament.objects.filter(pk=tournament_id).only("pk", "slug").first()
    if tournament is not None:
        emit(tournament, Event.STANDINGS_CHANGED, {
            "url": absolute(reverse("public-standings", args=[tournament.slug])),
            "api": absolute(reverse("api-v1:standings", kwargs={"slug": tournament.slug}))})


def announcement_posted(tournament: Tournament, announcement_id: int, text: str, posted_at: datetime) -> None:
    emit(tournament, Event.ANNOUNCEMENT_POSTED, {"id": announcement_id, "text": text,
                                                 "posted_at": posted_at.isoformat()})
