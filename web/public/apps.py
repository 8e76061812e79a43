from django.apps import AppConfig


class PublicConfig(AppConfig):
    """The public pages anyone may read without signing in; for now the ratings across events (`/ratings/…`)."""

    name = "web.public"
    label = "web_public"
