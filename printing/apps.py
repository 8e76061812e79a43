from django.apps import AppConfig


class PrintingConfig(AppConfig):
    """The organizer's documents for the day and the print jobs that lay out a whole game's."""

    name = "printing"
