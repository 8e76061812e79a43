"""`manage.py check --deploy`: the deployment's own settings checked beside Django's, each a reason the site would
not work as its users expect (links to nowhere, forms refused, emails that never leave, half-configured push) or
would reach where it must not (a test seam left on)."""
from urllib.parse import urlsplit

from django.conf import settings
from django.core.checks import Error, Tags, register
from django.http.request import validate_host
from django.utils.http import is_same_domain

from core import site

UNDELIVERED_BACKENDS = {
    "django.core.mail.backends.console.EmailBackend": "printed on the console",
    "django.core.mail.backends.locmem.EmailBackend": "kept in memory",
    "django.core.mail.backends.dummy.EmailBackend": "thrown away",
}


def _trusted(origin: str) -> bool:
    """Whether CSRF_TRUSTED_ORIGINS names `origin`, as Django's CSRF middleware matches it (exactly, or a
    `https://*.example` entry for a subdomain)."""
    scheme, netloc = origin.split("://", 1)
    for trusted in settings.CSRF_TRUSTED_ORIGINS:
        if trusted.rstrip("/") == origin:
            return True
        parts = urlsplit(trusted)
        if "*" in trusted and parts.scheme == scheme and is_same_domain(netloc, parts.netloc.lstrip("*")):
            return True
    return False


def site_url_problems() -> list[Error]:
    if wrong := site.problem(settings.SITE_URL):
        return [Error(wrong, id="catan.E001")]
    origin = site.origin()
    host = urlsplit(origin).hostname or ""
    found = []
    if not validate_host(host, settings.ALLOWED_HOSTS):
        found.append(Error(f"SITE_URL's host {host!r} is not in ALLOWED_HOSTS: every link the site sends would be "
                           "answered 400.", hint=f"Add {host} to ALLOWED_HOSTS.", id="catan.E002"))
    if not _trusted(origin):
        found.append(Error(f"SITE_URL's origin {origin!r} is not in CSRF_TRUSTED_ORIGINS: forms sent from the site "
                           "could be refused behind the TLS proxy.", hint=f"Add {origin} to CSRF_TRUSTED_ORIGINS.",
                           id="catan.E003"))
    return found


def email_problems() -> list[Error]:
    where = UNDELIVERED_BACKENDS.get(settings.EMAIL_BACKEND)
    if settings.DEBUG or where is None:
        return []
    return [Error(f"With DEBUG off every email would be {where} ({settings.EMAIL_BACKEND}): no player or organizer "
                  "would get one.", hint="Set EMAIL_URL to the mail server, e.g. "
                  "submission://user:password@smtp.example:587.", id="catan.E004")]


def push_problems() -> list[Error]:
    keys = {"WEBPUSH_VAPID_PUBLIC_KEY": settings.WEBPUSH_VAPID_PUBLIC_KEY,
            "WEBPUSH_VAPID_PRIVATE_KEY": settings.WEBPUSH_VAPID_PRIVATE_KEY}
    missing = [name for name, value in keys.items() if not value]
    if len(missing) != 1:
        return []
    return [Error(f"Only one VAPID key is set ({missing[0]} is not): Web Push stays off.",
                  hint="Set both lines `manage.py make_vapid_keys` prints, or neither.", id="catan.E005")]


def outbound_problems() -> list[Error]:
    """The outbound guard's test seam (`core/outbound.py`) lets webhooks and Web Push reach local and private
    addresses, the server's own network: for tests and a stack on loopback, never with DEBUG off on a deployment."""
    if settings.DEBUG or not (settings.OUTBOUND_LOCAL_ALLOWED or settings.OUTBOUND_LOCAL_HOSTS):
        return []
    return [Error("OUTBOUND_LOCAL_ALLOWED or OUTBOUND_LOCAL_HOSTS is set with DEBUG off: webhooks and Web Push may "
                  "reach this server's own network.",
                  hint="Unset both on a deployment; they are for tests and a local stack.", id="catan.E006")]


@register(Tags.security, deploy=True)
def deployment(app_configs, **kwargs) -> list[Error]:
    return [*site_url_problems(), *email_problems(), *push_problems(), *outbound_problems()]
