from django.apps import AppConfig


class SiteConfig(AppConfig):
    """The project itself as an app, so `check --deploy` runs the deployment's own checks (checks.py)."""

    name = "catan_tournaments"

    def ready(self) -> None:
        from . import checks  # noqa: F401  (registers them)
