"""Read-only public JSON about tournaments (docs/interfaces.md, HTTP)."""
from django.http import JsonResponse
from django.views.decorators.http import require_GET

from .models import Tournament


def tournament_json(tournament: Tournament) -> dict:
    return {
        "slug": tournament.slug,
        "name": tournament.name,
        "kind": tournament.kind,
        "date": tournament.date.isoformat() if tournament.date else None,
        "status": tournament.status,
        "ruleset": tournament.ruleset,
        "city": tournament.city,
        "championship": tournament.championship.name if tournament.championship else None,
    }


@require_GET
def tournament_list(request):
    tournaments = Tournament.objects.select_related("championship")
    return JsonResponse([tournament_json(t) for t in tournaments], safe=False)
