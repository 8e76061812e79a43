"""ASGI entry point."""
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "catan_tournaments.settings")
application = get_asgi_application()

from catan_tournaments.production import require_production_settings  # noqa: E402

require_production_settings()
