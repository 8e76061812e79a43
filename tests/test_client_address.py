"""`core.clients.client_address`: the one way the app reads who is asking (sign-in throttle, rate limits)."""
import pytest
from django.test import RequestFactory

from core.clients import client_address, client_network


def request(remote="10.0.0.2", forwarded=None):
    meta = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **meta)


@pytest.mark.parametrize(("proxies", "forwarded", "expected"), [
    (0, None, "10.0.0.2"),
    (0, "203.0.113.7", "10.0.0.2"),                         # no proxy: the header is the client's own words
    (1, "203.0.113.7", "203.0.113.7"),
    (1, "198.51.100.1, 203.0.113.7", "203.0.113.7"),       # the client wrote the first entry itself
    (1, "198.51.100.1,203.0.113.7", "203.0.113.7"),
    (2, "198.51.100.1, 203.0.113.7, 192.0.2.50", "203.0.113.7"),
    (2, "203.0.113.7", "10.0.0.2"),                         # fewer entries than proxies: not through all of them
    (1, "", "10.0.0.2"),
    (1, None, "10.0.0.2"),
    (1, "unknown", "10.0.0.2"),
    (1, "203.0.113.7:54321", "203.0.113.7"),
    (1, "[2001:db8:1:2:3:4:5:6]:443", "2001:db8:1:2::"),
    (1, "2001:db8:1:2:aaaa::1", "2001:db8:1:2::"),         # an IPv6 client is its /64
    (1, "::ffff:203.0.113.7", "203.0.113.7"),
    (1, "203.0.113.7, ", "203.0.113.7"),
])
def test_the_client_is_proxy_count_places_from_the_right(settings, proxies, forwarded, expected):
    settings.PROXY_COUNT = proxies
    assert client_address(request(forwarded=forwarded)) == expected


def test_an_unreadable_connecting_address_is_unknown(settings):
    settings.PROXY_COUNT = 0
    assert client_address(request(remote="")) is None


@pytest.mark.parametrize(("forwarded", "expected"), [
    ("2001:db8:1:a::1", "2001:db8:1::/48"),
    ("[2001:db8:1:ffff:1:2:3:4]:443", "2001:db8:1::/48"),  # another /64 of the same /48
    ("2001:db8:2::1", "2001:db8:2::/48"),
    ("203.0.113.7", None),                                  # IPv4 has no wider network counted
    ("::ffff:203.0.113.7", None),
    ("unknown", None),
])
def test_an_ipv6_client_is_counted_by_its_48_as_well(settings, forwarded, expected):
    settings.PROXY_COUNT = 1
    assert client_network(request(remote="", forwarded=forwarded)) == expected
