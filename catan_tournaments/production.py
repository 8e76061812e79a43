"""Refuse to serve the web application with the development secret key in production."""
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured


def require_production_secret() -> None:
    if not settings.DEBUG and settings.SECRET_KEY == settings.DEV_SECRET_KEY:
        raise ImproperlyConfigured("SECRET_KEY must be set in the environment when DEBUG is off.")
