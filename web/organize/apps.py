from django.apps import AppConfig


class OrganizeWebConfig(AppConfig):
    """The organizer's console: every page an organizer uses (the console, people, check-in, seating, publishing,
    qualification, printing, seasons, API tokens, webhooks), its forms and templates, over the domain services."""

    name = "web.organize"
    label = "web_organize"
