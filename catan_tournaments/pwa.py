"""The referee's tablet as an installable web app (issue 28): the manifest, its icons and the service worker.

All three are served from the site root, outside the language prefixes: a service worker controls only the
paths under its own address, and it must control `/referee/…` and `/ar/referee/…` alike. The worker's source is
`static/js/sw.js` (its header says why it is written by hand); it is sent from here after the routes it acts on,
read from the URL configuration (`worker_routes`), with `Service-Worker-Allowed: /` and without caching, so a new
version, or a renamed route, reaches the tablets on their next visit.
"""
import io
import json
from functools import cache
from pathlib import Path

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_safe
from PIL import Image, ImageDraw

WORKER = Path(settings.BASE_DIR) / "static" / "js" / "sw.js"
ICON_SIZES = (192, 512)


@cache
def worker_routes() -> dict[str, object]:
    """The addresses the worker recognises, as the URL configuration spells them (in the default language, which
    has no prefix; `languages` are the prefixes of the others): a renamed route cannot silently stop the sign-out
    wipe of a tablet's cache."""
    with translation.override(settings.LANGUAGE_CODE):
        before, after = reverse("players-me", args=["TOKEN"]).split("TOKEN")
        return {
            "languages": [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE],
            "referee": reverse("referee-home"), "signIn": reverse("login"), "signOut": reverse("logout"),
            "playerPage": [before, after], "static": settings.STATIC_URL, "icon": reverse("app-icon-192"),
        }


@cache
def worker_source() -> bytes:
    return f"const ROUTES = {json.dumps(worker_routes())};\n".encode() + WORKER.read_bytes()


@require_safe
@never_cache
def service_worker(request):
    response = HttpResponse(worker_source(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_safe
@cache_control(max_age=86400, public=True)
def manifest(request):
    """Installs the referee's desk: it opens on the referee's tournaments, full screen like an app."""
    data = {
        "name": "CATAN tournaments · referee", "short_name": "CATAN referee",
        "start_url": reverse("referee-home"), "scope": "/", "display": "standalone",
        "background_color": "#fffdf8", "theme_color": "#144466",
        "icons": [{"src": reverse(f"app-icon-{size}"), "sizes": f"{size}x{size}", "type": "image/png"}
                  for size in ICON_SIZES] + [{"src": static("icons/favicon.svg"), "sizes": "any",
                                              "type": "image/svg+xml"}],
    }
    return JsonResponse(data, content_type="application/manifest+json")


@cache
def icon_png(size: int) -> bytes:
    """static/icons/favicon.svg drawn with Pillow (the same hexagon and circles on its 64-unit grid), 4× then
    scaled down for smooth edges."""
    scale = size * 4 / 64
    image = Image.new("RGBA", (size * 4, size * 4), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)

    def at(*points: float) -> list[float]:
        return [p * scale for p in points]

    hexagon = at(32, 3, 57, 17.5, 57, 46.5, 32, 61, 7, 46.5, 7, 17.5)
    draw.polygon(hexagon, fill="#e8b92f", outline="#144466", width=round(5 * scale))
    draw.ellipse(at(19, 19, 45, 45), fill="#fffdf8", outline="#144466", width=round(2.5 * scale))
    for x in (26, 38):
        draw.ellipse(at(x - 3.2, 28.8, x + 3.2, 35.2), fill="#b3411f")
    out = io.BytesIO()
    image.resize((size, size), Image.Resampling.LANCZOS).save(out, "PNG", optimize=True)
    return out.getvalue()


@require_safe
@cache_control(max_age=86400, public=True)
def app_icon(request, size: int):
    return HttpResponse(icon_png(size), content_type="image/png")
