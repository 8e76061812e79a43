from django.apps import AppConfig


class DemoConfig(AppConfig):
    """Only `seed_demo`: the app exists so Django finds the command; nothing imports it."""

    name = "demo"
