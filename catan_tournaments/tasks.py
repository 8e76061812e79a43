"""Housekeeping run by Celery beat."""
from celery import shared_task
from django.core.management import call_command


@shared_task
def clear_expired_sessions() -> None:
    call_command("clearsessions")


@shared_task
def forget_old_signin_failures() -> None:
    """Failed sign-ins older than a day no longer lengthen a pause (core/signin.py): drop them."""
    call_command("axes_reset_failure_logs", age=1)
