from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

from .health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("api/", include("championships.api_urls")),
    path("api/", include("ranking.api_urls")),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
]
urlpatterns += i18n_patterns(
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("championships.urls")),
    path("", include("scheduling.urls")),
    path("", include("ranking.urls")),
    prefix_default_language=False,
)
