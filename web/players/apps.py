from django.apps import AppConfig


class PlayersConfig(AppConfig):
    """The players' own pages on their phones: register, their private link, check in, confirm a result."""

    name = "web.players"
    label = "web_players"
