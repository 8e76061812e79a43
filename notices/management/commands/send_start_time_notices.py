"""Email participants the official start time within the day before it (also run by Celery beat)."""
from django.core.management.base import BaseCommand

from notices.start_time import send_start_time_notices


class Command(BaseCommand):
    help = "Email every participant the official start time within the day before it (each notice once)."

    def handle(self, *args, **options):
        sent = send_start_time_notices()
        self.stdout.write(f"{sent} start-time notice(s) sent.")
