"""Staff sign-in behind the TLS proxy (issue 22, item 6): nobody can lock a referee out.

The client's address is read from `X-Forwarded-For` as `PROXY_COUNT` says; failures pause this username
from this address only, for a time that grows with repeated failures; a browser that signed in before
keeps its own allowance. (An organizer lifts a pause: tests/organize/test_staff_unlock.py.)
"""
from datetime import timedelta

import pytest
from axes.models import AccessAttempt, AccessFailureLog
from django.test import Client
from django.urls import reverse

from tests.factories import make_user

pytestmark = pytest.mark.django_db

PASSWORD = "pw-for-tests-only"
PROXY = "10.0.0.2"  # the TLS proxy: every request reaches the app from it


@pytest.fixture
def behind_proxy(settings):
    settings.PROXY_COUNT = 1


def sign_in(client, username, password, forwarded_for, **extra):
    return client.post(reverse("login"), {"username": username, "password": password},
                       REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded_for, **extra)


def fail(client, times: int, address: str = "198.51.100.66", username: str = "referee-ana") -> list[int]:
    """The statuses of `times` wrong passwords."""
    return [sign_in(client, username, "wrong", address).status_code for _ in range(times)]


def earlier(minutes: float) -> None:
    """Move every recorded failure back in time, as if `minutes` had passed."""
    for model in (AccessAttempt, AccessFailureLog):
        for row in model.objects.all():
            model.objects.filter(pk=row.pk).update(attempt_time=row.attempt_time - timedelta(minutes=minutes))


def test_failures_from_anywhere_behind_the_proxy_do_not_lock_the_referee_out(behind_proxy):
    """The hole: with django-ipware missing, every request had the proxy's address, so five wrong
    passwords from anywhere refused the real referee (429) for 15 minutes."""
    make_user("referee-ana")
    attacker = Client()
    statuses = [sign_in(attacker, "referee-ana", "wrong", "198.51.100.66").status_code for _ in range(6)]
    assert statuses[-1] == 429  # the attacker's own address is paused
    assert sign_in(Client(), "referee-ana", PASSWORD, "203.0.113.7").status_code == 302


def test_a_forwarded_for_entry_written_by_the_client_is_not_believed(behind_proxy):
    make_user("referee-ana")
    attacker = Client()
    for _ in range(6):  # pretends to be the referee's address; the proxy appends the real one
        sign_in(attacker, "referee-ana", "wrong", "203.0.113.7, 198.51.100.66")
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"198.51.100.66"}
    assert sign_in(Client(), "referee-ana", PASSWORD, "203.0.113.7").status_code == 302


def test_the_pause_is_short_at_first_and_grows_with_each_round_of_failures(behind_proxy):
    make_user("referee-ana")
    client = Client()
    statuses = [sign_in(client, "referee-ana", "wrong", "198.51.100.66").status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 200, 429]
    paused = sign_in(client, "referee-ana", PASSWORD, "198.51.100.66")
    assert paused.status_code == 429 and paused["Retry-After"] == "60"
    assert "1 minute" in paused.content.decode()
    earlier(1.1)
    statuses = [sign_in(client, "referee-ana", "wrong", "198.51.100.66").status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 200, 429]  # the second round: paused for 2 minutes
    earlier(1.1)
    assert sign_in(client, "referee-ana", PASSWORD, "198.51.100.66").status_code == 429
    earlier(1)
    assert sign_in(client, "referee-ana", PASSWORD, "198.51.100.66").status_code == 302


def test_the_pause_never_exceeds_fifteen_minutes(behind_proxy):
    make_user("referee-ana")
    client = Client()
    for _ in range(8):  # eight rounds of five failures, each after the pause ended
        for _ in range(5):
            sign_in(client, "referee-ana", "wrong", "198.51.100.66")
        earlier(16)
    for _ in range(5):
        response = sign_in(client, "referee-ana", "wrong", "198.51.100.66")
    assert response.status_code == 429 and response["Retry-After"] == str(15 * 60)
    earlier(15.1)
    assert sign_in(client, "referee-ana", PASSWORD, "198.51.100.66").status_code == 302


def test_failures_spread_over_the_day_still_add_up(behind_proxy):
    """Four wrong passwords every so often must not go on for ever without a pause."""
    make_user("referee-ana")
    client = Client()
    fail(client, 4)
    earlier(20)
    assert sign_in(client, "referee-ana", "wrong", "198.51.100.66").status_code == 429


def test_someone_elses_sign_in_does_not_shorten_a_pause(behind_proxy):
    """django-axes deletes every attempt older than the cool-off of whoever signs in next: a longer pause of
    another pair must not end with it."""
    make_user("referee-ana")
    make_user("referee-bo")
    client = Client()
    fail(client, 5)
    earlier(1.1)
    fail(client, 5)  # the second pause: 2 minutes
    earlier(1.1)
    assert sign_in(Client(), "referee-bo", "wrong", "203.0.113.7").status_code == 200
    assert sign_in(Client(), "referee-bo", PASSWORD, "203.0.113.7").status_code == 302
    assert sign_in(client, "referee-ana", PASSWORD, "198.51.100.66").status_code == 429


def test_attempts_refused_during_a_pause_do_not_lengthen_it(behind_proxy):
    make_user("referee-ana")
    client = Client()
    fail(client, 5)
    paused_at = AccessAttempt.objects.get().attempt_time
    for _ in range(20):
        assert sign_in(client, "referee-ana", "wrong", "198.51.100.66").status_code == 429
    assert AccessAttempt.objects.get().attempt_time == paused_at
    earlier(1.1)
    assert sign_in(client, "referee-ana", PASSWORD, "198.51.100.66").status_code == 302


def test_a_browser_that_signed_in_before_is_not_paused_by_someone_on_the_same_wifi(behind_proxy):
    """Everyone at a venue shares one address: the referee's own tablet, which signed in there before,
    keeps signing in while an attacker on the same Wi-Fi hammers the referee's username."""
    make_user("referee-ana")
    tablet = Client()
    assert sign_in(tablet, "referee-ana", PASSWORD, "192.0.2.10").status_code == 302
    tablet.post(reverse("logout"))
    attacker = Client()
    for _ in range(10):
        sign_in(attacker, "referee-ana", "wrong", "192.0.2.10")
    assert sign_in(attacker, "referee-ana", PASSWORD, "192.0.2.10").status_code == 429
    assert sign_in(tablet, "referee-ana", PASSWORD, "192.0.2.10").status_code == 302


def test_a_known_browser_has_a_limit_of_its_own(behind_proxy):
    make_user("referee-ana")
    tablet = Client()
    sign_in(tablet, "referee-ana", PASSWORD, "192.0.2.10")
    tablet.post(reverse("logout"))
    statuses = [sign_in(tablet, "referee-ana", "wrong", "192.0.2.10").status_code for _ in range(15)]
    assert 429 in statuses  # after its own 10 failures it is paused like any other browser
    assert sign_in(tablet, "referee-ana", PASSWORD, "192.0.2.10").status_code == 429


def test_the_known_browser_mark_is_for_the_username_that_signed_in(behind_proxy):
    make_user("referee-ana")
    make_user("referee-bo")
    tablet = Client()
    sign_in(tablet, "referee-ana", PASSWORD, "192.0.2.10")
    tablet.post(reverse("logout"))
    statuses = [sign_in(tablet, "referee-bo", "wrong", "192.0.2.10").status_code for _ in range(5)]
    assert statuses[-1] == 429


def test_the_paused_page_says_what_to_do(behind_proxy):
    make_user("referee-ana")
    client = Client()
    for _ in range(5):
        response = sign_in(client, "referee-ana", "wrong", "198.51.100.66")
    page = response.content.decode()
    assert response.status_code == 429 and "<html" in page
    assert "organizer" in page  # who can lift the pause


def test_the_sign_in_page_works_without_a_proxy_header(settings):
    """PROXY_COUNT=0 (no proxy): the connecting address is the client, X-Forwarded-For is ignored."""
    settings.PROXY_COUNT = 0
    make_user("referee-ana")
    client = Client()
    for n in range(5):  # a different forged header each time: all counted against the one real address
        client.post(reverse("login"), {"username": "referee-ana", "password": "wrong"},
                    REMOTE_ADDR="198.51.100.66", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}")
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"198.51.100.66"}
