from django.apps import AppConfig


class OrganizeConfig(AppConfig):
    """The organizer's console across the apps: today the activity log of a tournament."""

    name = "organize"
