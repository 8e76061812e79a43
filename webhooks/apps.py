from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    """A championship's webhooks: events posted, signed, to the addresses its organizers register."""

    name = "webhooks"

    def ready(self) -> None:
        from core import checks  # noqa: F401 - registers the outbound guard's deploy check
