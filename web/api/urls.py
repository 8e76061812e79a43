"""API v1's URLs, included at /api/v1/ (catan_tournaments/urls.py); named in the `api-v1` namespace.

Every answer under /api/v1/ is JSON in the one shape of a refusal, even where Django or ninja would answer in HTML
or plain text: an address that names no operation answers 404 and a method an operation does not take 405 (with
`Allow`), both `{"detail": …}`."""
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import URLPattern, re_path

from .views import api

JSON = "application/json; charset=utf-8"
"""As ninja answers."""


def _json_refusals(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """ninja's 405 (plain text) as JSON, its `Allow` kept."""
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        if response.status_code == 405:
            refused = JsonResponse({"detail": f"This address does not take {request.method}."}, status=405,
                                   content_type=JSON)
            refused["Allow"] = response["Allow"]
            return refused
        return response
    return wrapper


def _no_operation(request: HttpRequest, address: str = "") -> HttpResponse:
    return JsonResponse({"detail": "No operation of API v1 has this address (see /api/v1/docs)."}, status=404,
                        content_type=JSON)


_patterns, _app, app_name = api.urls  # reversed as `api-v1:…`, ninja's namespace
# Fewer parameters first, so a literal segment wins over a parameter in its place: POST /players/import/ is not
# GET /players/{player_id}/ (an id that is not a number answers 422, so that pattern takes any segment).
urlpatterns = [URLPattern(p.pattern, _json_refusals(p.callback), p.default_args, p.name)
               for p in sorted(_patterns, key=lambda p: str(p.pattern).count("<")) if isinstance(p, URLPattern)]
urlpatterns.append(re_path(r"^(?P<address>(?:.*/)?)$", _no_operation, name="no-operation"))
