"""An email address a visitor typed: which stored addresses it is, and how many emails it may be sent.

One normalisation decides both, the database's `UPPER` of the trimmed address: `same_email` matches a stored
address by it (as Django's `iexact` does on PostgreSQL) and `email_key` is what the per-recipient limit counts.
The key and the match cannot disagree, so no spelling that reaches a player's address escapes the limit: a
`casefold` key once let "ıvan@…" (dotless ı, which `UPPER` makes "I") count apart from "ivan@…" while the match
found the same player. On SQLite `UPPER` changes ASCII letters only; the key and the match still agree there.

Every email the site sends to an address someone typed, whoever they are (a registration's confirmation or the
answer about an email already here, a private link asked for again on `/me/`, a password reset), is counted
against that address: at most `EMAILS_PER_RECIPIENT_HOUR` an hour and `EMAILS_PER_RECIPIENT_DAY` a day, counted
when asked whether or not an email goes out, so the answer tells nobody whose address it is.
"""
import math

from django.conf import settings
from django.db import connection
from django.db.models import Value
from django.db.models.functions import Upper
from django.db.models.lookups import Exact
from django.utils.translation import ngettext

from .ratelimit import RateLimit

HOUR = 3600
DAY = 24 * HOUR


def email_key(address: str) -> str:
    """The address as the database compares it: what the per-recipient limit counts."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT UPPER(CAST(%s AS TEXT))", [address.strip()])
        return str(cursor.fetchone()[0])


def same_email(field: str, address: str) -> "Exact[str]":
    """A filter for the rows whose `field` is this address, by the same normalisation as `email_key`."""
    return Exact(Upper(field), Upper(Value(address.strip())))


def _limits() -> tuple[RateLimit, RateLimit]:
    return (RateLimit("email-recipient-hour", settings.EMAILS_PER_RECIPIENT_HOUR, HOUR),
            RateLimit("email-recipient-day", settings.EMAILS_PER_RECIPIENT_DAY, DAY))


def recipient_wait(address: str) -> int:
    """Count one email asked for this address: 0 when it may go, else the seconds until it may. An hour's
    refusal is not counted against the day."""
    key = email_key(address)
    for limit in _limits():
        if wait := limit.hit(key):
            return wait
    return 0


def refusal(wait: int) -> str:
    """What a visitor is told when the address they typed has had its emails: the same on every form."""
    minutes = max(1, math.ceil(wait / 60))
    return ngettext("Too many emails were sent to this address: try again in %(n)d minute.",
                    "Too many emails were sent to this address: try again in %(n)d minutes.", minutes) % {"n": minutes}
