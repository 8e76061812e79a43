"""README's abuse limits give the numbers the code enforces (issue 33's "Done when"): the per-recipient email limit,
the limit on finding other championships' players and the outbound requests' deadline and header caps. A number
changed in the code and not in the README fails here."""
import re
from pathlib import Path

from django.conf import settings

from championships.foreign_players import FINDS
from core import outbound

README = Path(settings.BASE_DIR) / "README.md"


def _abuse_limits() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("### Abuse limits", 1)[1]
    return re.split(r"\n#{2,3} ", section, maxsplit=1)[0].replace("\n  ", " ")


def _item(section: str, opening: str) -> str:
    (found,) = [item for item in section.split("\n- ") if item.startswith(opening)]
    return " ".join(found.split())


def test_the_per_recipient_email_limit_is_the_settings_one():
    item = _item(_abuse_limits(), "**Emails to an address someone typed**")
    assert (f"at most {settings.EMAILS_PER_RECIPIENT_HOUR} an hour and {settings.EMAILS_PER_RECIPIENT_DAY} a day"
            in item)
    assert "EMAILS_PER_RECIPIENT_HOUR" in item and "EMAILS_PER_RECIPIENT_DAY" in item


def test_the_find_limit_is_the_one_counted():
    item = _item(_abuse_limits(), "**Finding another championship's players**")
    assert FINDS.window == 3600
    assert f"at most {FINDS.limit} lookups an hour per organizer account" in item
    assert re.search(rf"the {FINDS.limit + 1}(st|nd|rd|th) try of the hour is refused", item)


def test_the_outbound_deadline_and_header_caps_are_the_guards():
    item = _item(_abuse_limits(), "**Requests the site sends out**")
    assert f"**{outbound.DEADLINE_SECONDS:g} seconds in all**" in item
    assert f"cut off at {outbound.DEADLINE_SECONDS:g} s" in item
    assert f"at most **{outbound.HEADERS_MAX} headers**" in item
    assert f"**{outbound.HEADER_BYTES_MAX // 1024} KiB** of them" in item
    assert f"{outbound.KEEP_BYTES // 1024} KB of its body kept" in item
