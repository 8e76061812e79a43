"""The Celery application; tasks run eagerly in-process when REDIS_URL is unset."""
import os

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "catan_tournaments.settings")

app = Celery("catan_tournaments")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def _refuse_an_unconfigured_deployment(**_kwargs) -> None:
    """The worker builds the emails' links: like the web entry points, it does not start without the site's
    address (or with the development key) when DEBUG is off. Celery logs and ignores an exception a signal handler
    raises, so this one exits."""
    from catan_tournaments.production import problems

    if found := problems():
        raise SystemExit(" ".join(found))
