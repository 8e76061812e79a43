"""Password-reset emails are limited per client address and per account (issue 22, item 6), the account's with
every other email to an address typed (core/emails.py, issue 33 item 5).

Without a limit anyone could make the site send a staff member hundreds of reset emails (or use it to
flood any address it has an account for); the limits are counted on POST only, and a refused request
says why and when to try again. The email goes out from the email queue once the request's work commits (the tests
run in transactions that commit, as requests do).
"""
import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.db_snapshot import snapshot
from tests.factories import make_user
from tests.site import open_link

pytestmark = pytest.mark.django_db(transaction=True)

PROXY = "10.0.0.2"


@pytest.fixture(autouse=True)
def behind_proxy(settings):
    settings.PROXY_COUNT = 1


def ask(email, address, client=None):
    return (client or Client()).post(reverse("password_reset"), {"email": email},
                                     REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=address)


def test_an_account_gets_at_most_emails_per_recipient_hour_reset_emails_an_hour(settings):
    settings.EMAILS_PER_RECIPIENT_HOUR = 3
    make_user("referee-ana", email="ana@example.com")
    statuses = [ask("ana@example.com", f"198.51.100.{n}").status_code for n in range(5)]
    assert statuses == [302, 302, 302, 429, 429]
    assert len(mail.outbox) == 3
    refused = ask("ANA@example.com", "198.51.100.99")  # the same account, typed in capitals
    assert refused.status_code == 429 and len(mail.outbox) == 3
    page = refused.content.decode()
    assert "Too many emails were sent to this address" in page and "minutes" in page
    assert 0 < int(refused["Retry-After"]) <= 3600


def test_one_address_asks_at_most_ten_times_an_hour_whatever_the_accounts():
    for n in range(12):
        make_user(f"staff-{n}", email=f"staff{n}@example.com")
    statuses = [ask(f"staff{n}@example.com", "198.51.100.66").status_code for n in range(12)]
    assert statuses == [302] * 10 + [429, 429]
    assert len(mail.outbox) == 10
    page = ask("staff0@example.com", "198.51.100.66").content.decode()
    assert "from your network" in page
    assert ask("staff11@example.com", "203.0.113.7").status_code == 302  # another address is not affected


def test_an_unknown_email_is_counted_the_same_and_says_nothing_about_accounts(settings):
    settings.EMAILS_PER_RECIPIENT_HOUR = 3
    statuses = [ask("nobody@example.com", f"198.51.100.{n}").status_code for n in range(4)]
    assert statuses == [302, 302, 302, 429]
    assert len(mail.outbox) == 0


def test_opening_the_form_counts_nothing_and_writes_nothing():
    make_user("referee-ana", email="ana@example.com")
    before = snapshot()
    for _ in range(20):
        assert Client().get(reverse("password_reset"), REMOTE_ADDR=PROXY,
                            HTTP_X_FORWARDED_FOR="198.51.100.66").status_code == 200
    assert snapshot() == before
    assert ask("ana@example.com", "198.51.100.66").status_code == 302


def test_the_emailed_link_is_on_the_sites_address_and_opens_as_written():
    """The link was built on the host the request came by (Django's default), not on SITE_URL."""
    make_user("referee-ana", email="ana@example.com")
    assert ask("ana@example.com", "198.51.100.5").status_code == 302
    (sent,) = mail.outbox
    link = re.search(r"https?://\S+/accounts/reset/\S+/", sent.body).group(0)
    assert link.startswith("https://catan.example/accounts/reset/") and "catan.example" in sent.subject
    client = Client()
    opened = open_link(client, link)  # Django swaps the token for a session mark and redirects
    assert opened.status_code == 302
    assert "New password" in open_link(client, f"https://catan.example{opened['Location']}").content.decode()
