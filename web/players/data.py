"""The player's own data (docs/privacy.md): everything kept about them, readable and as JSON, and its erasure,
asked from the private page and confirmed by the emailed link."""
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from championships.models import Player
from core.emails import recipient_wait, refusal
from core.ratelimit import RateLimit
from privacy import erasure
from privacy.export import player_copy_json, sections
from privacy.models import Erasure
from web.requests import HtmxHttpRequest

from .tokens import HOUR, invalid_link, player_link, private_page, tokens_checked


@private_page
@require_GET
@player_link
def me_data(request: HtmxHttpRequest, token: str, *, player: Player) -> HttpResponse:
    """Everything the site keeps about the player, readable (privacy/export.py), with the JSON to download."""
    return render(request, "players/me_data.html", {"player": player, "token": token, "sections": sections(player)})


@private_page
@require_GET
@player_link
def me_data_json(request: HtmxHttpRequest, token: str, *, player: Player) -> HttpResponse:
    """The same as one JSON file, downloaded."""
    response = HttpResponse(player_copy_json(player), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="my-data-{player.pk}.json"'
    return response


ERASE_ASKS = RateLimit("player-erase-ask", 3, HOUR)
"""Erasure links emailed per player and hour: one tap asks once."""


@private_page
@require_POST
@player_link
def me_erase(request: HtmxHttpRequest, token: str, *, player: Player) -> HttpResponse:
    """Ask to erase one's data: the emailed link confirms it (`privacy.erasure.ask`), so a phone left open does not."""
    if (wait := ERASE_ASKS.hit(str(player.pk))) or (player.email and (wait := recipient_wait(player.email))):
        messages.error(request, refusal(wait))
    elif erasure.ask(player):
        messages.success(request, _("We emailed you a link: open it within %(hours)d hours to confirm the erasure.")
                         % {"hours": erasure.ASK_HOURS})
    else:
        messages.error(request, _("No email is registered for you: ask the organizers of your tournaments, in "
                                  "writing, to erase your data."))
    return redirect("players-me-data", token=token)


@private_page
@require_http_methods(["GET", "POST"])
@tokens_checked
def erase_confirm(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The emailed link: GET says what erasing does and shows the button (mail scanners open links too), the POST
    erases."""
    player = erasure.asked_by(token)
    if player is None:
        return invalid_link(request, _("This link does not erase anything: it has expired or was used. Ask again "
                                        "from your own page."))
    if request.method == "POST":
        erasure.erase(player.pk, by=Erasure.By.PLAYER)
        return render(request, "players/erase_confirm.html", {"done": True})
    return render(request, "players/erase_confirm.html", {"player": player, "hours": erasure.ASK_HOURS})
