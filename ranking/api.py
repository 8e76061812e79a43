"""Read-only public JSON: a tournament's standings, the same objects as `rank --json`."""
from django.http import JsonResponse
from django.views.decorators.http import require_GET

from championships.models import Tournament

from .standings import tournament_standings


@require_GET
def standings(request, slug: str):
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        return JsonResponse({"detail": "No tournament with that slug."}, status=404)
    return JsonResponse(tournament_standings(tournament), safe=False)
