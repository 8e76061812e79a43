"""Background jobs of the championship domain."""
from celery import shared_task

from core.mail import PrivateArguments

from . import links


@shared_task(base=PrivateArguments)
def send_private_link(email: str) -> bool:
    """A private link asked for again on /me/ (championships/links.py); the email is never in the logs."""
    return links.send_again(email)
