"""A delivery's body in its webhook's format: the JSON event as it is, or a chat message made from it, a Discord
embed or Slack blocks, that the chat's incoming webhook posts as it comes (same facts, same links, nothing more).
Written in the site's default language, once, when the event happens."""
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from .models import Event, Format

COLOUR = 0xC0392B
"""The embed's side bar: the site's brick red."""
TEXT_MAX = 1000
"""An announcement quoted in a message: well within Discord's 4096 and Slack's 3000 characters."""


def _title(event: dict[str, Any]) -> str:
    data = event["data"]
    titles = {
        Event.GAME_PUBLISHED: lambda: _("Game %(game)d: the seating is published") % {"game": data["game"]},
        Event.SHEET_SIGNED_OFF: lambda: _("Game %(game)d, table %(table)d: signed off") % {
            "game": data["game"], "table": data["table"]},
        Event.STANDINGS_CHANGED: lambda: _("The standings may have changed"),
        Event.ANNOUNCEMENT_POSTED: lambda: _("Announcement"),
    }
    made = titles.get(event["event"])
    return made() if made else _("Test message from the CATAN tournaments site")


def _where(event: dict[str, Any]) -> tuple[str, str]:
    """(its name, its page): the tournament's, or the championship's."""
    place = event.get("tournament") or event["championship"]
    return place["name"], place["url"]


def _text(event: dict[str, Any]) -> str:
    return str(event["data"].get("text", ""))[:TEXT_MAX]


def discord(event: dict[str, Any]) -> dict[str, Any]:
    name, page = _where(event)
    embed: dict[str, Any] = {"title": _title(event)[:256], "url": event["data"].get("url", page),
                             "description": _text(event), "color": COLOUR, "timestamp": event["created_at"],
                             "author": {"name": name[:256], "url": page},
                             "footer": {"text": event["championship"]["name"][:2048]}}
    return {"embeds": [{key: value for key, value in embed.items() if value}], "allowed_mentions": {"parse": []}}


def slack(event: dict[str, Any]) -> dict[str, Any]:
    name, page = _where(event)
    title, link = _title(event), event["data"].get("url", page)
    blocks: list[dict[str, Any]] = [
        {"type": "header", "text": {"type": "plain_text", "text": title[:150]}},
        {"type": "context", "elements": [{"type": "plain_text", "text": name[:150]}]}]
    if _text(event):
        blocks.append({"type": "section", "text": {"type": "plain_text", "text": _text(event)}})
    blocks.append({"type": "actions", "elements": [
        {"type": "button", "text": {"type": "plain_text", "text": _("Open the page")}, "url": link}]})
    return {"text": f"{title} ({name})", "blocks": blocks}


def payload_for(format_: str, event: dict[str, Any]) -> dict[str, Any]:
    """The body to post for a webhook of `format_`, whoever's language the change was made in."""
    with translation.override(settings.LANGUAGE_CODE):
        if format_ == Format.DISCORD:
            return discord(event)
        if format_ == Format.SLACK:
            return slack(event)
    return event
