"""The players' own pages, on their phones, without accounts: the private link `/me/<token>/` (and `/me/` to have
it sent again), confirming a result, Web Push, self check-in from the desk's QR code. Registering is signup.py,
calendar files calendars.py, the player's own data data.py; what every page behind a token shares, tokens.py.
"""
import secrets
from collections.abc import Iterable

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from attendance import self_checkin
from championships import foreign_players, links, push
from championships.models import Entry, Player, Tournament
from championships.tasks import send_private_link
from core.background import run_in_background
from core.emails import recipient_wait, refusal
from core.ratelimit import RateLimit
from core.webpush import configured as push_configured
from ranking.live import POLL_SECONDS, request_version
from ranking.own import OwnTournament, own_page
from results.limits import OBJECTION_MAX
from results.models import RecordSheet
from results.sheets import SheetLocked, StaleSheet, confirm_on_phone, object_on_phone
from web.requests import HtmxHttpRequest

from .forms import EmailForm, ObjectionForm, PushSubscriptionForm
from .tokens import (
    HANDED_OVER,
    HOUR,
    cookie_token,
    guessing,
    invalid_link,
    miss,
    player_link,
    private_page,
    set_cookie,
    token_player,
    tokens_checked,
    too_many,
    wait_minutes,
)

PUSH_CHANGES = RateLimit("player-push", 30, HOUR)
"""Notifications switched on or off per player and hour: a phone asks once each time its player taps."""


# ---- the private link -----------------------------------------------------------------------------------------

@private_page
@require_http_methods(["GET", "POST"])
def me_home(request: HtmxHttpRequest) -> HttpResponse:
    """Ask for the private link again: the answer is the same whatever the email (the sending runs in the
    background, so not even its time tells whether the email is a player's)."""
    form = EmailForm(request.POST or None)
    context = {"form": form, "sent": False, "per_email": settings.EMAILS_PER_RECIPIENT_HOUR}
    if request.method == "POST":
        if not form.is_valid():
            return render(request, "players/me_home.html", context, status=422)
        email = form.cleaned_data["email"].strip()
        if wait := RateLimit("player-link-address", settings.PLAYER_LINKS_PER_ADDRESS, HOUR).hit_client(request):
            return too_many(request, "players/me_home.html", context, wait, ngettext(
                "Too many links were asked for: try again in %(n)d minute.",
                "Too many links were asked for: try again in %(n)d minutes.", wait_minutes(wait))
                % {"n": wait_minutes(wait)})
        if wait := recipient_wait(email):
            return too_many(request, "players/me_home.html", context, wait, refusal(wait))
        run_in_background(send_private_link, email)
        context.update(sent=True, form=EmailForm())
    return render(request, "players/me_home.html", context)


@private_page
@require_GET
@tokens_checked
def me(request: HtmxHttpRequest, token: str) -> HttpResponse:
    player = token_player(token)
    if player is None:
        return invalid_link(request, _("This link does not open anything: it was mistyped, or replaced by a newer "
                                        "one. Ask for yours again below."))
    rows = own_page(player)
    sent = links.sent_to_player(token)
    response = render(request, "players/me.html", {"player": player, "token": token, "rows": rows,
                                                   "acts_in": None if sent else _acts_in(token, rows),
                                                   "handed_over": HANDED_OVER,
                                                   "invitations": foreign_players.awaiting(player) if sent else [],
                                                   "objection_max": OBJECTION_MAX,
                                                   "live": live_of(request, rows),
                                                   "push_key": settings.WEBPUSH_VAPID_PUBLIC_KEY
                                                   if push_configured() else ""})
    set_cookie(response, token)
    return response


def live_of(request: HtmxHttpRequest, rows: list[OwnTournament]) -> dict[str, object] | None:
    """What the page's live poll follows: the first tournament being played (`own_page` puts it first)."""
    row = next((row for row in rows if row.tournament.status == Tournament.Status.RUNNING), None)
    if row is None:
        return None
    return {"tournament": row.tournament, "poll_seconds": POLL_SECONDS,
            "version": request_version(request, row.tournament.slug) or ""}


def _acts_in(token: str, rows: Iterable[OwnTournament]) -> set[int]:
    """The tournaments where a link handed over by an organizer may confirm a result (`links.may_act`)."""
    return {row.tournament.pk for row in rows if links.may_act(token, row.tournament)}


@private_page
@require_POST
@player_link
def me_sheet(request: HtmxHttpRequest, token: str, sheet_id: int, *, player: Player) -> HttpResponse:
    """Confirm the table's result (the player's signature, by phone) or say it is wrong."""
    form = ObjectionForm(request.POST)
    action = request.POST.get("action")
    if not form.is_valid() or action not in ("confirm", "object"):
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors)
                       or _("Choose whether the result is right or wrong."))
        return redirect("players-me", token=token)
    version = form.cleaned_data["version"]
    tournament = Tournament.objects.filter(games__tables__sheet=sheet_id).first()
    if tournament is not None and not links.may_act(token, tournament):
        messages.error(request, HANDED_OVER)
        return redirect(reverse("players-me", args=[token]) + f"#sheet-{sheet_id}")
    try:
        if action == "confirm":
            confirm_on_phone(sheet_id, player=player, version=version)
            messages.success(request, _("Thank you: your confirmation is recorded. The referee signs the result off."))
        else:
            object_on_phone(sheet_id, player=player, version=version, note=form.cleaned_data["note"])
            messages.warning(request, _("Recorded: the referee sees that you say the result is wrong. Tell them at "
                                        "the table too."))
    except RecordSheet.DoesNotExist:
        return render(request, "404.html", status=404)  # here, not raised: the answer keeps this page's headers
    except StaleSheet:
        messages.error(request, _("The result was changed meanwhile: check it again below."))
    except (SheetLocked, ValidationError) as error:
        messages.error(request, str(error) if isinstance(error, SheetLocked) else " ".join(error.messages))
    return redirect(reverse("players-me", args=[token]) + f"#sheet-{sheet_id}")


@private_page
@require_POST
@player_link
def me_confirm_entry(request: HtmxHttpRequest, token: str, entry_id: int, *, player: Player) -> HttpResponse:
    """The player lets the organizers of a tournament that entered them from another championship see their
    details (`foreign_players.confirm`)."""
    try:
        invitation = foreign_players.confirm(entry_id, player=player, token=token)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Confirmed: the organizers of %(tournament)s now see your details.")
                         % {"tournament": invitation.entry.tournament.name})
    return redirect("players-me", token=token)


@private_page
@require_POST
@tokens_checked
def me_push_subscribe(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """This browser is notified of the player's tables from now on (posted by static/players/push.js)."""
    return _push_change(request, token, subscribing=True)


@private_page
@require_POST
@tokens_checked
def me_push_unsubscribe(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """This browser is no longer notified of the player's tables."""
    return _push_change(request, token, subscribing=False)


def _push_change(request: HtmxHttpRequest, token: str, *, subscribing: bool) -> HttpResponse:
    """204 when done; JSON with the problem otherwise. There is nothing here where Web Push is not configured."""
    if not push_configured():
        raise Http404
    player = token_player(token)
    if player is None:
        return invalid_link(request)
    if wait := PUSH_CHANGES.hit(str(player.pk)):
        response = JsonResponse({"error": _("Too many changes: try again in %(n)d minutes.")
                                 % {"n": wait_minutes(wait)}}, status=429)
        response["Retry-After"] = str(wait)
        return response
    form = PushSubscriptionForm(request.POST, subscribing=subscribing)
    if not form.is_valid():
        return JsonResponse({"error": _("This browser's notification address cannot be used.")}, status=422)
    try:
        if subscribing:
            push.subscribe(player, **form.cleaned_data)
        else:
            push.unsubscribe(player, endpoint=form.cleaned_data["endpoint"])
    except ValidationError as error:
        return JsonResponse({"error": " ".join(error.messages)}, status=422)
    return HttpResponse(status=204)


# ---- self check-in --------------------------------------------------------------------------------------------

@private_page
@require_http_methods(["GET", "POST"])
@tokens_checked
def check_in(request: HtmxHttpRequest, slug: str, code: str) -> HttpResponse:
    """The QR code's page: GET says who would be checked in, the POST checks them in (late by the rule, or sent
    to the desk). The player is the one whose private link this phone opened last."""
    tournament = get_object_or_404(Tournament.objects.select_related("championship"), slug=slug)
    token = cookie_token(request)
    player = token_player(token) if token and links.may_act(token, tournament) else None
    window = self_checkin.current_window(tournament)
    open_now = window is not None and secrets.compare_digest(window.code.encode(), code.encode())
    if not open_now and (wait := miss(request)):
        return guessing(request, wait)
    entry = Entry.objects.filter(tournament=tournament, player=player).first() if player else None
    context = {"tournament": tournament, "player": player, "token": token if player else None, "entry": entry,
               "open_now": open_now, "window": window if open_now else None}
    if request.method == "POST":
        if player is None:
            return render(request, "players/check_in.html", context, status=403)
        try:
            done = self_checkin.self_check_in(tournament, code, player=player)
        except self_checkin.SentToDesk as error:
            return render(request, "players/check_in.html", {**context, "desk": " ".join(error.messages)},
                          status=409)
        except ValidationError as error:
            return render(request, "players/check_in.html", {**context, "problem": " ".join(error.messages)},
                          status=410)
        context.update(entry=done.entry, done=True)
    return render(request, "players/check_in.html", context)
