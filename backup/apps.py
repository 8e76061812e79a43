from django.apps import AppConfig


class BackupConfig(AppConfig):
    """One tournament as a JSON file and back (its commands live here)."""

    name = "backup"
