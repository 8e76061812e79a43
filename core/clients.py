"""Who is asking: the client's address, read one way for the whole app (sign-in throttling, every rate limit).

Behind `PROXY_COUNT` reverse proxies each one appends the address it was connected from to
`X-Forwarded-For`, so the client is the entry `PROXY_COUNT` places from the right; whatever stands to the
left of it was written by the client and is never believed. A request with fewer entries did not come
through every proxy (someone reached a proxy behind the first one directly): it is taken to come from
the address that connected to us. An IPv6 client is counted by its /64 network, as one home or phone
gets a whole /64 and could otherwise change address at every request, and by its /48 as well
(`client_network`): whoever holds a /48 has 65,536 /64s to move between. A site or a mobile operator's pool
puts many people in one /48, so the rate limits allow a /48 `NETWORK_SHARE` times what they allow one client
(`core/ratelimit.py`).
"""
import ipaddress

from django.conf import settings
from django.http import HttpRequest

IPV6_PREFIX = 64
NETWORK_PREFIX = 48
NETWORK_SHARE = 2
"""How many clients' allowance an IPv6 /48 gets."""


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """An address as a proxy may write it: bare, IPv4 with a port, or IPv6 in brackets with a port."""
    text = text.strip()
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _client(request: HttpRequest) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    address = None
    proxies = max(getattr(settings, "PROXY_COUNT", 0), 0)
    if proxies:
        forwarded = [part for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        if len(forwarded) >= proxies:
            address = _address(forwarded[-proxies])
    return address or _address(request.META.get("REMOTE_ADDR", ""))


def client_address(request: HttpRequest) -> str | None:
    """The address rate limits and the sign-in throttle count the request against (None if unknown)."""
    address = _client(request)
    if address is None:
        return None
    if isinstance(address, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((address, IPV6_PREFIX), strict=False).network_address)
    return str(address)


def client_network(request: HttpRequest) -> str | None:
    """An IPv6 client's /48 ("2001:db8:1::/48"), which rate limits count as well; None for IPv4 or unknown."""
    address = _client(request)
    if not isinstance(address, ipaddress.IPv6Address):
        return None
    return str(ipaddress.IPv6Network((address, NETWORK_PREFIX), strict=False))
