"""Webhook addresses that lead back inside (issue 33, item 7): IPv6 forms carrying a local IPv4 address, site-local
and Teredo, besides the decimal, octal and mapped forms of issue 22, are refused when the webhook is added and when a
delivery goes out to a name that resolves to one (the guard's resolver stood in for, `outbound.lookup`)."""
import pytest
from django.core.exceptions import ValidationError

from core import outbound
from tests.ssrf import EMBEDDED_V6, LITERAL_HOSTS, PUBLIC_V6, SPECIAL_NAMES, resolver
from webhooks import services
from webhooks.models import Delivery, Event, Webhook

pytestmark = pytest.mark.django_db


@pytest.fixture
def guarded(settings):
    settings.OUTBOUND_LOCAL_ALLOWED = False
    settings.OUTBOUND_LOCAL_HOSTS = []


@pytest.fixture
def dns(monkeypatch):
    """Names resolved as the test says (tests/ssrf.py)."""
    names: dict[str, list[str]] = {}
    monkeypatch.setattr(outbound, "lookup", resolver(names))
    return names


@pytest.mark.parametrize("host", LITERAL_HOSTS + SPECIAL_NAMES)
def test_the_guard_refuses_a_local_address_in_any_form_without_asking_dns(guarded, dns, host):
    with pytest.raises(outbound.Refused, match="is a local or private address"):
        outbound.check_url(f"https://{host}:8443/hook")


def test_a_local_address_in_any_form_is_refused_when_the_webhook_is_added(guarded, cup):
    """Through the service (and so the console page's form): each form refused with the guard's reason, nothing
    stored. One test for all the forms: a tournament per form would cost more than the checks."""
    tournament, organizer, _other = cup
    accepted = []
    for host in LITERAL_HOSTS + SPECIAL_NAMES:
        try:
            services.add_webhook(tournament.championship, f"https://{host}:8443/hook", [Event.GAME_PUBLISHED],
                                 user=organizer)
        except ValidationError as refused:
            assert "local or private address" in " ".join(refused.message_dict["url"]), host
        else:
            accepted.append(host)
    assert accepted == [] and not Webhook.objects.exists()


def test_a_name_resolving_to_an_embedded_local_address_is_not_delivered_to(guarded, cup, dns, later,
                                                                           django_capture_on_commit_callbacks):
    """A name is added (DNS is not asked then) and resolves to each form when a delivery goes out: each delivery
    fails at once, for good, with the reason."""
    tournament, organizer, _other = cup
    hook = services.add_webhook(tournament.championship, "https://hooks.example.net/catan", [Event.GAME_PUBLISHED],
                                user=organizer)
    for address in EMBEDDED_V6:
        dns["hooks.example.net"] = [address]
        services.set_active(tournament.championship, hook.pk, True, user=organizer)  # turned off after 5 failures
        with django_capture_on_commit_callbacks(execute=True):
            delivery = services.ping(tournament.championship, hook.pk, user=organizer)
        delivery.refresh_from_db()
        assert (delivery.status, delivery.attempts, later) == (Delivery.Status.FAILED, 1, []), address
        assert delivery.message == ("The host hooks.example.net is a local or private address; only public "
                                    "addresses are contacted."), address


def test_a_name_that_also_resolves_inside_is_refused_whole(guarded, dns):
    dns["mixed.example.net"] = ["93.184.215.14", "64:ff9b::7f00:1"]
    with pytest.raises(outbound.Refused, match="local or private"):
        outbound.post("https://mixed.example.net/", b"{}", {})


def test_a_stored_local_webhook_is_never_connected_to(guarded, cup, dns, later, raw_receiver,
                                                      django_capture_on_commit_callbacks):
    """A webhook added before the forms were refused, to a literal address and to a name resolving to loopback: a
    real listener on 127.0.0.1 sees no connection."""
    tournament, organizer, _other = cup
    listener = raw_receiver(lambda connection, stop: None)
    dns["inside.example.net"] = ["127.0.0.1"]
    for url in (f"https://[::ffff:127.0.0.1]:{listener.port}/", f"https://0177.0.0.1:{listener.port}/",
                f"https://inside.example.net:{listener.port}/", f"http://127.0.0.1:{listener.port}/"):
        hook = Webhook.objects.create(championship=tournament.championship, url=url, events=[Event.GAME_PUBLISHED],
                                      secret="s" * 64, created_by=organizer)
        with django_capture_on_commit_callbacks(execute=True):
            delivery = services.ping(tournament.championship, hook.pk, user=organizer)
        delivery.refresh_from_db()
        assert delivery.status == Delivery.Status.FAILED and not later, url
    assert listener.connections == 0


@pytest.mark.parametrize("address", PUBLIC_V6)
def test_public_addresses_in_ipv6_forms_stay_reachable(guarded, dns, address):
    """An IPv6-only server reaches an IPv4 receiver through NAT64: the IPv4 address inside decides."""
    assert outbound.public(outbound.literal(address))
    assert outbound.check_url(f"https://[{address}]/hook") == f"https://[{address}]/hook"
    dns["nat64.example.net"] = [address]
    assert outbound.literal(outbound.resolve("nat64.example.net", 443)) == outbound.literal(address)


@pytest.mark.parametrize("address", EMBEDDED_V6)
def test_each_embedded_form_is_not_public(address):
    assert not outbound.public(outbound.literal(address))
