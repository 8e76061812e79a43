from django.apps import AppConfig


class RefereeConfig(AppConfig):
    """The referee's tablet (organizers use it too): the desk, record sheets, penalties, draws, announcements and
    the game clock; its views, forms and templates, over the results and ranking services."""

    name = "web.referee"
    label = "web_referee"
