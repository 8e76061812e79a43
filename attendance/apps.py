from django.apps import AppConfig


class AttendanceConfig(AppConfig):
    """Who is here: check-in at the desk and from the phone, its windows and lateness."""

    name = "attendance"
