from django.apps import AppConfig


class RankingConfig(AppConfig):
    name = "ranking"

    def ready(self) -> None:
        from . import corrections, signals  # noqa: F401  (connects the receivers)
