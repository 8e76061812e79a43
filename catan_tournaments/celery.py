"""The Celery application; tasks run eagerly in-process when REDIS_URL is unset."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "catan_tournaments.settings")

app = Celery("catan_tournaments")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
