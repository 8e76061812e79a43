"""Links the site sent (emails, calendar files, QR codes, the API) opened exactly as written, on the server whose
address is the configured SITE_URL: the test client asked for that host and scheme, never for the path alone."""
from urllib.parse import urlsplit

from django.conf import settings

SITE = "https://catan.example"
"""SITE_URL in every test (tests/conftest.py), with its host among ALLOWED_HOSTS."""


def open_link(client, url: str, method: str = "get", **kwargs):
    """`client.<method>(url)` with the link's host and scheme; the link must start with SITE_URL."""
    parts = urlsplit(url)
    assert f"{parts.scheme}://{parts.netloc}" == settings.SITE_URL.rstrip("/"), f"{url} is not on {settings.SITE_URL}"
    return getattr(client, method)(url, HTTP_HOST=parts.netloc, secure=parts.scheme == "https", **kwargs)
