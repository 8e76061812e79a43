"""What django-axes records of a failed sign-in."""

USERNAME_MAX = 255
"""The length of django-axes' username column."""


def attempted_username(request, credentials) -> str | None:
    """The username tried, cut to what django-axes stores.

    Django's sign-in forms check the username's length only in the browser, so a longer one reached
    the record of the failure and made it a server error (on the site's and the admin's sign-in).
    """
    data = credentials or getattr(request, "data", None) or getattr(request, "POST", {})
    username = data.get("username")
    return username[:USERNAME_MAX] if isinstance(username, str) else username
