from django.apps import AppConfig


class OrganizeConfig(AppConfig):
    """The organizer's console across the apps: today the activity log of a tournament."""

    name = "organize"

    def ready(self) -> None:
        from core.mail import email_failed

        from .undelivered import record_failure

        email_failed.connect(record_failure, dispatch_uid="organize.undelivered")
