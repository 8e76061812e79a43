from django.apps import AppConfig


class NoticesConfig(AppConfig):
    """Emails the site sends on its own (start times, staff invitations) and the ones it could not send."""

    name = "notices"

    def ready(self) -> None:
        from core.mail import email_failed

        from .undelivered import record_failure

        email_failed.connect(record_failure, dispatch_uid="notices.undelivered")
