"""Prints a new VAPID key pair for Web Push, as the environment lines the settings read (README, Deployment)."""
from typing import Any

from django.core.management.base import BaseCommand

from core.webpush import new_keys


class Command(BaseCommand):
    help = "Print a new VAPID key pair (WEBPUSH_VAPID_PUBLIC_KEY, WEBPUSH_VAPID_PRIVATE_KEY) for Web Push."

    def handle(self, *args: Any, **options: Any) -> None:
        public, private = new_keys()
        self.stdout.write(f"WEBPUSH_VAPID_PUBLIC_KEY={public}\nWEBPUSH_VAPID_PRIVATE_KEY={private}\n")
