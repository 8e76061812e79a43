"""`manage.py check --deploy`'s own checks: a test seam left on where the site is public is an error."""
from typing import Any

from django.conf import settings
from django.core import checks


@checks.register(checks.Tags.security, deploy=True)
def outbound_seam_off(app_configs: Any, **kwargs: Any) -> list[checks.CheckMessage]:
    """The outbound guard's seam (`core/outbound.py`) lets webhooks and Web Push reach local and private addresses,
    the server's own network: for tests and a stack on loopback, never with DEBUG off on a deployment."""
    if settings.DEBUG or not (settings.OUTBOUND_LOCAL_ALLOWED or settings.OUTBOUND_LOCAL_HOSTS):
        return []
    return [checks.Error(
        "OUTBOUND_LOCAL_ALLOWED or OUTBOUND_LOCAL_HOSTS is set with DEBUG off: webhooks and Web Push may reach "
        "this server's own network.", hint="Unset both on a deployment; they are for tests and a local stack.",
        id="catan.E001")]
