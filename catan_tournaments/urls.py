from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

from .health import healthz, livez
from .icons import favicon
from .metrics import metrics
from .pwa import ICON_SIZES, app_icon, manifest, service_worker

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("livez", livez, name="livez"),
    path("metrics", metrics, name="metrics"),
    path("favicon.ico", favicon, name="favicon"),
    path("sw.js", service_worker, name="service-worker"),
    path("manifest.webmanifest", manifest, name="manifest"),
    *(path(f"app-icon-{size}.png", app_icon, {"size": size}, name=f"app-icon-{size}") for size in ICON_SIZES),
    path("api/v1/", include("web.api.urls")),
    path("api/", include("catan_tournaments.routes.api")),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
]
urlpatterns += i18n_patterns(
    path("accounts/", include("catan_tournaments.routes.accounts")),
    path("referee/", include("catan_tournaments.routes.referee")),
    path("organize/", include("catan_tournaments.routes.organize")),
    path("", include("web.players.urls")),
    path("", include("catan_tournaments.routes.public")),
    prefix_default_language=False,
)
