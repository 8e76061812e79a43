"""WSGI entry point (gunicorn)."""
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "catan_tournaments.settings")
application = get_wsgi_application()

from catan_tournaments.production import require_production_settings  # noqa: E402

require_production_settings()
