"""Read-only public JSON: the seating of a published game, with results once signed off."""
from django.http import JsonResponse
from django.views.decorators.http import require_GET

from championships.models import Tournament
from scheduling.models import Game

from .selectors import game_seating


@require_GET
def seating(request, slug: str, number: int):
    game = (Game.objects.select_related("stage").exclude(status=Game.Status.PLANNED)
            .filter(tournament__slug=slug, number=number).first())
    if game is None:
        found = Tournament.objects.filter(slug=slug).exists()
        detail = "No published game with that number." if found else "No tournament with that slug."
        return JsonResponse({"detail": detail}, status=404)
    return JsonResponse(game_seating(game))
