"""Read-only public JSON of the ratings (docs/interfaces.md): the list, paged and filtered as the page is, and one
player's rating with their events and a page of their games. Unlisted players answer 404, as unknown ones do."""
from urllib.parse import urlencode

from django.http import JsonResponse
from django.views.decorators.http import require_GET

from core.site import absolute

from .selectors import HISTORY_PAGE_SIZE, PAGE_SIZE, Filters, player_history, ratings_page


def _page(request) -> int:
    value = request.GET.get("page", "1")
    return int(value) if value.isascii() and value.isdigit() and 0 < len(value) < 7 and int(value) else 1


def _link(request, params: dict[str, str], page: int) -> str:
    return absolute(request.path + "?" + urlencode({**params, "page": page}))


@require_GET
def ratings(request):
    filters = Filters.from_query(request.GET)
    page = ratings_page(filters, _page(request), with_choices=False)
    params = filters.as_params()
    return JsonResponse({
        "count": page.count, "page": page.number, "pages": page.pages, "page_size": PAGE_SIZE,
        "next": _link(request, params, page.number + 1) if page.number < page.pages else None,
        "previous": _link(request, params, page.number - 1) if page.number > 1 else None,
        "results": [row.as_json() for row in page.rows],
    })


@require_GET
def player(request, player_id: int):
    history = player_history(player_id, _page(request))
    if history is None:
        return JsonResponse({"detail": "No rated player with that id."}, status=404)
    return JsonResponse({
        **history.row.as_json(),
        "events": [{"tournament": e.slug, "name": e.name, "date": e.date.isoformat() if e.date else None,
                    "games": e.games, "wins": e.wins, "change": e.change} for e in history.events],
        "games": {
            "count": history.count, "page": history.number, "pages": history.pages, "page_size": HISTORY_PAGE_SIZE,
            "next": _link(request, {}, history.number + 1) if history.number < history.pages else None,
            "previous": _link(request, {}, history.number - 1) if history.number > 1 else None,
            "results": [game.as_json() for game in history.games],
        },
    })
