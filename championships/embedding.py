"""Which websites may show a tournament's embed (`/t/<slug>/embed/`) in a frame: the origins its organizers list.

A federation puts the embed on its own site in an `<iframe>`; the browser lets it only when the page's
`Content-Security-Policy: frame-ancestors` names that site's origin. Every other page of this site refuses any
frame (`core.security`). Origins are kept exactly as a browser compares them (scheme, host, port; no path), one
per line, and read back through the cache so a burst of readers costs the database nothing.
"""
import contextlib
import ipaddress
import re
from urllib.parse import urlsplit

from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from audit.actions import Action
from audit.services import record_change

from .models import Tournament
from .permissions import require_organizer

ORIGINS_MAX = 10
"""The most websites one tournament lists (each a line of the form)."""
TEXT_MAX = Tournament._meta.get_field("embed_origins").max_length
"""The form's limit: the field's own."""
ORIGIN_SECONDS = 300
"""How long the cache keeps a tournament's origins; a change forgets them at once."""
_LABEL = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)")
_DEFAULT_PORTS = {"http": 80, "https": 443}


def normalized_origin(text: str) -> str:
    """`https://example.org`, as a browser names the origin of a page at that address; ValueError if the text is
    not an origin (another scheme, a path, a query, a user name, a wildcard, a host that cannot be one)."""
    parts = urlsplit(text.strip())
    if parts.scheme not in _DEFAULT_PORTS or parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(text)
    if parts.username is not None or parts.password is not None or not parts.hostname:
        raise ValueError(text)
    host, port = parts.hostname, parts.port  # .port raises ValueError for a port out of range
    try:
        host = ipaddress.ip_address(host).compressed
        host = f"[{host}]" if ":" in host else host
    except ValueError:
        if len(host) > 253 or not all(_LABEL.fullmatch(label) for label in host.split(".")):
            raise ValueError(text) from None
    shown_port = f":{port}" if port is not None and port != _DEFAULT_PORTS[parts.scheme] else ""
    return f"{parts.scheme}://{host}{shown_port}"


def parse_origins(text: str) -> list[str]:
    """The origins of a form's text (one per line, or separated by spaces or commas), in order, each once."""
    found: list[str] = []
    wrong: list[str] = []
    for item in re.split(r"[\s,]+", text.strip()):
        if not item:
            continue
        try:
            origin = normalized_origin(item)
        except ValueError:
            wrong.append(item[:80])
        else:
            if origin not in found:
                found.append(origin)
    if wrong:
        raise ValidationError(_("Not a website's origin (like https://example.org, without a path): %(items)s")
                              % {"items": ", ".join(wrong)})
    if len(found) > ORIGINS_MAX:
        raise ValidationError(_("At most %(n)d websites.") % {"n": ORIGINS_MAX})
    return found


def set_embed_origins(tournament_id: int, text: str, *, user) -> Tournament:
    """The websites that may show the tournament's embed from now on, written by one of its organizers; audited."""
    origins = parse_origins(text)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        require_organizer(user, tournament)
        before = listed(tournament)
        if before == origins:
            return tournament
        tournament.embed_origins = "\n".join(origins)
        tournament.save(update_fields=["embed_origins"])
        record_change(user, tournament.pk, Action.TOURNAMENT_EMBED_ORIGINS, tournament,
                      before={"origins": before}, after={"origins": origins})
        transaction.on_commit(lambda: _forget(tournament.pk))
    return tournament


def listed(tournament: Tournament) -> list[str]:
    return tournament.embed_origins.split() if tournament.embed_origins else []


def _key(tournament_id: int) -> str:
    return f"embed-origins:{tournament_id}"


def _forget(tournament_id: int) -> None:
    with contextlib.suppress(Exception):  # the cache is an optimisation only; it expires within ORIGIN_SECONDS
        cache.delete(_key(tournament_id))


def frame_origins(tournament_id: int) -> list[str]:
    """The origins that may frame the tournament's embed, from the cache when it has them."""
    with contextlib.suppress(Exception):
        if (stored := cache.get(_key(tournament_id))) is not None:
            return list(stored)
    text = next(iter(Tournament.objects.filter(pk=tournament_id).values_list("embed_origins", flat=True)), "")
    origins = text.split()
    with contextlib.suppress(Exception):
        cache.set(_key(tournament_id), origins, timeout=ORIGIN_SECONDS)
    return origins
