from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    """A championship's webhooks: events posted, signed, to the addresses its organizers register."""

    name = "webhooks"
