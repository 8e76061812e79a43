"""Refuse to serve the site (the web entry points, the Celery worker) with DEBUG off and a setting it cannot run on:
the development secret key, or no site address (every emailed link would point nowhere)."""
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from core import site


def problems() -> list[str]:
    """What is missing for a deployment, one sentence each (none with DEBUG on)."""
    if settings.DEBUG:
        return []
    found = []
    if settings.SECRET_KEY == settings.DEV_SECRET_KEY:
        found.append("SECRET_KEY must be set in the environment when DEBUG is off.")
    if wrong := site.problem(settings.SITE_URL):
        found.append(wrong)
    return found


def require_production_settings() -> None:
    if found := problems():
        raise ImproperlyConfigured(" ".join(found))
