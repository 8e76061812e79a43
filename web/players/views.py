"""The players' own pages, on their phones, without accounts: register and confirm, the private link `/me/<token>/`
(and `/me/` to have it sent again), self check-in from the desk's QR code, confirming a result, calendar files.

A page behind a token is `private_page`: never stored by a browser or proxy, never indexed, and its address goes
to no other site as a referrer (`same-origin`: "no-referrer" would make the browser send `Origin: null` with the
page's forms, which Django's CSRF check refuses; our own logs redact the token, core/logging.py). None of them goes
through the public page cache. Opening one's private link leaves a cookie holding it, so the check-in QR code
opened on the same phone knows who is checking in.
"""
import math
import secrets
from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any, cast

from django.conf import settings
from django.contrib import messages
from django.core import signing
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from championships import foreign_players, links, places, privacy_notice, push, signup
from championships.models import Championship, Entry, Player, Tournament
from championships.tasks import send_private_link
from core.background import run_in_background
from core.emails import recipient_wait, refusal
from core.ics import CONTENT_TYPE, calendar
from core.ratelimit import RateLimit
from core.site import absolute
from core.webpush import configured as push_configured
from organize import self_checkin
from privacy import erasure
from privacy.export import player_copy_json, sections
from privacy.models import Erasure
from ranking.live import POLL_SECONDS, request_version
from ranking.own import OwnTournament, own_page
from results.limits import OBJECTION_MAX
from results.models import RecordSheet
from results.sheets import SheetLocked, StaleSheet, confirm_on_phone, object_on_phone
from scheduling.calendar import tournament_event
from web.forms import add_service_errors
from web.requests import HtmxHttpRequest

from .forms import EmailForm, ObjectionForm, PushSubscriptionForm, RegistrationForm

HOUR = 3600
TOKEN_MISSES = RateLimit("player-token-miss", 30, HOUR)
"""Addresses with a token or check-in code that opens nothing, per client address and hour: past the limit, that
address is answered "wait" for every token until the hour ends, so nobody tries tokens at speed. A mistyped or
replaced link is one miss; a venue's players behind one address stay far below it."""
PUSH_CHANGES = RateLimit("player-push", 30, HOUR)
"""Notifications switched on or off per player and hour: a phone asks once each time its player taps."""
COOKIE = "catan_me"
COOKIE_SALT = "web.players.me"
COOKIE_DAYS = 30


def private_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A page that shows or takes a token: no-store, noindex, its address never sent to another site."""
    @wraps(view)
    def wrapper(request: HtmxHttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        add_never_cache_headers(response)  # Cache-Control: max-age=0, no-cache, no-store, must-revalidate, private
        response["X-Robots-Tag"] = "noindex, nofollow"
        response["Referrer-Policy"] = "same-origin"
        return response
    return wrapper


def _too_many(request: HtmxHttpRequest, template: str, context: dict[str, Any], wait: int,
              problem: str) -> HttpResponse:
    response = render(request, template, {**context, "problem": problem}, status=429)
    response["Retry-After"] = str(wait)
    return response


def _minutes(seconds: int) -> int:
    return max(1, math.ceil(seconds / 60))


def _invalid_link(request: HtmxHttpRequest, problem: str = "") -> HttpResponse:
    """A token or code that opens nothing: counted against the client's address (TOKEN_MISSES)."""
    if wait := TOKEN_MISSES.hit_client(request):
        return _guessing(request, wait)
    return render(request, "players/invalid_link.html", {"problem": problem}, status=404)


def _guessing(request: HtmxHttpRequest, wait: int) -> HttpResponse:
    return _too_many(request, "players/invalid_link.html", {}, wait, ngettext(
        "Too many links that open nothing came from your network: try again in %(n)d minute.",
        "Too many links that open nothing came from your network: try again in %(n)d minutes.", _minutes(wait))
        % {"n": _minutes(wait)})


def tokens_checked(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Refuses, before looking a token up, an address that has had too many that open nothing."""
    @wraps(view)
    def wrapper(request: HtmxHttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if wait := TOKEN_MISSES.client_wait(request):
            return _guessing(request, wait)
        return view(request, *args, **kwargs)
    return wrapper


# ---- registering ----------------------------------------------------------------------------------------------

def _needs_birth_date(tournament: Tournament) -> bool:
    return bool(tournament.championship and tournament.championship.age_cutoff)


@private_page
@require_http_methods(["GET", "POST"])
def register(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament.objects.select_related("championship"), slug=slug)
    closed = signup.why_closed(tournament)
    form = RegistrationForm(request.POST or None, needs_birth_date=_needs_birth_date(tournament),
                            needs_consent=tournament.championship is not None)
    context = {"tournament": tournament, "form": form, "closed": closed, "places_left": places.places_left(tournament),
               "privacy_notice": privacy_notice.text_of(tournament.championship) if tournament.championship else "",
               "waiting": places.waiting(tournament).count(), "confirm_hours": signup.CONFIRM_HOURS,
               "sent": request.GET.get("sent") == "1"}
    if request.method == "POST" and closed:
        return render(request, "players/register.html", context, status=422)
    if request.method == "POST":
        wait = RateLimit("player-registration", settings.REGISTRATIONS_PER_ADDRESS, HOUR).hit_client(request)
        if wait:
            return _too_many(request, "players/register.html", context, wait, ngettext(
                "Too many registrations from your network: try again in %(n)d minute.",
                "Too many registrations from your network: try again in %(n)d minutes.", _minutes(wait))
                % {"n": _minutes(wait)})
        if form.is_valid():
            if wait := recipient_wait(form.cleaned_data["email"]):
                return _too_many(request, "players/register.html", context, wait, refusal(wait))
            try:
                signup.register(tournament.pk, form.details(get_language()))
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                return redirect(reverse("players-register", args=[slug]) + "?sent=1")
        return render(request, "players/register.html", context, status=422)
    return render(request, "players/register.html", context)


@private_page
@require_http_methods(["GET", "POST"])
@tokens_checked
def register_confirm(request: HtmxHttpRequest, slug: str, token: str) -> HttpResponse:
    """GET shows what confirming does and a button (email scanners open links too); the POST confirms."""
    registration = signup.registration_for(slug, token)
    if registration is None:
        return _invalid_link(request, _("This confirmation link is not valid. Register again on the tournament's "
                                        "page."))
    context = {"registration": registration, "tournament": registration.tournament,
               "expired": signup.expired(registration)}
    if request.method == "POST":
        try:
            confirmed = signup.confirm(slug, token)
        except ValidationError as error:
            return render(request, "players/register_confirm.html", {**context, "problem": " ".join(error.messages)},
                          status=422)
        if confirmed.link:
            response = redirect(confirmed.link)
            response.status_code = 303
            return response
        context["registration"] = confirmed.registration
    return render(request, "players/register_confirm.html", context)


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
            return _too_many(request, "players/me_home.html", context, wait, ngettext(
                "Too many links were asked for: try again in %(n)d minute.",
                "Too many links were asked for: try again in %(n)d minutes.", _minutes(wait))
                % {"n": _minutes(wait)})
        if wait := recipient_wait(email):
            return _too_many(request, "players/me_home.html", context, wait, refusal(wait))
        run_in_background(send_private_link, email)
        context.update(sent=True, form=EmailForm())
    return render(request, "players/me_home.html", context)


def _set_cookie(response: HttpResponse, token: str) -> None:
    response.set_cookie(COOKIE, signing.dumps(token, salt=COOKIE_SALT), max_age=COOKIE_DAYS * 24 * 3600,
                        secure=settings.SESSION_COOKIE_SECURE, httponly=True, samesite="Lax")


def _cookie_token(request: HtmxHttpRequest) -> str | None:
    value = request.COOKIES.get(COOKIE)
    if not value:
        return None
    try:
        return cast(str, signing.loads(value, salt=COOKIE_SALT, max_age=COOKIE_DAYS * 24 * 3600))
    except signing.BadSignature:
        return None


def _player(token: str) -> Player | None:
    return links.player_for(token)


@private_page
@require_GET
@tokens_checked
def me(request: HtmxHttpRequest, token: str) -> HttpResponse:
    player = _player(token)
    if player is None:
        return _invalid_link(request, _("This link does not open anything: it was mistyped, or replaced by a newer "
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
    _set_cookie(response, token)
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


HANDED_OVER = gettext_lazy("The link you have was handed to you by the organizers of another event: confirm results "
                           "of this tournament at the table.")


@private_page
@require_GET
@tokens_checked
def me_calendar(request: HtmxHttpRequest, token: str) -> HttpResponse:
    player = _player(token)
    if player is None:
        return _invalid_link(request)
    entries = (Entry.objects.filter(player=player).exclude(tournament__status=Tournament.Status.FINISHED)
               .select_related("tournament"))
    events = [event for entry in entries if (event := tournament_event(
        entry.tournament, entry=entry,
        url=absolute(reverse("public-tournament", args=[entry.tournament.slug]))))]
    return _ics(calendar(events, name=_("My CATAN tournaments"), now=timezone.now()), "my-tournaments.ics")


def _ics(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type=CONTENT_TYPE)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@private_page
@require_POST
@tokens_checked
def me_cancel(request: HtmxHttpRequest, token: str, registration_id: int) -> HttpResponse:
    player = _player(token)
    if player is None:
        return _invalid_link(request)
    tournament = Tournament.objects.filter(registrations=registration_id).first()
    if tournament is not None and not links.may_act(token, tournament):
        messages.error(request, HANDED_OVER)
        return redirect("players-me", token=token)
    try:
        registration = signup.cancel(registration_id, player=player)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Your registration for %(tournament)s is cancelled.")
                         % {"tournament": registration.tournament.name})
    return redirect("players-me", token=token)


@private_page
@require_POST
@tokens_checked
def me_sheet(request: HtmxHttpRequest, token: str, sheet_id: int) -> HttpResponse:
    """Confirm the table's result (the player's signature, by phone) or say it is wrong."""
    player = _player(token)
    if player is None:
        return _invalid_link(request)
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
@tokens_checked
def me_confirm_entry(request: HtmxHttpRequest, token: str, entry_id: int) -> HttpResponse:
    """The player lets the organizers of a tournament that entered them from another championship see their
    details (`foreign_players.confirm`)."""
    player = _player(token)
    if player is None:
        return _invalid_link(request)
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
    player = _player(token)
    if player is None:
        return _invalid_link(request)
    if wait := PUSH_CHANGES.hit(str(player.pk)):
        response = JsonResponse({"error": _("Too many changes: try again in %(n)d minutes.")
                                 % {"n": _minutes(wait)}}, status=429)
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


# ---- the player's data ----------------------------------------------------------------------------------------

@private_page
@require_GET
@tokens_checked
def me_data(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """Everything the site keeps about the player, readable (privacy/export.py), with the JSON to download."""
    player = _player(token)
    if player is None:
        return _invalid_link(request)
    return render(request, "players/me_data.html", {"player": player, "token": token, "sections": sections(player)})


@private_page
@require_GET
@tokens_checked
def me_data_json(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The same as one JSON file, downloaded."""
    player = _player(token)
    if player is None:
        return _invalid_link(request)
    response = HttpResponse(player_copy_json(player), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="my-data-{player.pk}.json"'
    return response


ERASE_ASKS = RateLimit("player-erase-ask", 3, HOUR)
"""Erasure links emailed per player and hour: one tap asks once."""


@private_page
@require_POST
@tokens_checked
def me_erase(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """Ask to erase one's data: the emailed link confirms it (`privacy.erasure.ask`), so a phone left open does not."""
    player = _player(token)
    if player is None:
        return _invalid_link(request)
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
        return _invalid_link(request, _("This link does not erase anything: it has expired or was used. Ask again "
                                        "from your own page."))
    if request.method == "POST":
        erasure.erase(player.pk, by=Erasure.By.PLAYER)
        return render(request, "players/erase_confirm.html", {"done": True})
    return render(request, "players/erase_confirm.html", {"player": player, "hours": erasure.ASK_HOURS})


# ---- self check-in --------------------------------------------------------------------------------------------

@private_page
@require_http_methods(["GET", "POST"])
@tokens_checked
def check_in(request: HtmxHttpRequest, slug: str, code: str) -> HttpResponse:
    """The QR code's page: GET says who would be checked in, the POST checks them in (late by the rule, or sent
    to the desk). The player is the one whose private link this phone opened last."""
    tournament = get_object_or_404(Tournament.objects.select_related("championship"), slug=slug)
    token = _cookie_token(request)
    player = _player(token) if token and links.may_act(token, tournament) else None
    window = self_checkin.current_window(tournament)
    open_now = window is not None and secrets.compare_digest(window.code.encode(), code.encode())
    if not open_now and (wait := TOKEN_MISSES.hit_client(request)):
        return _guessing(request, wait)
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


@require_GET
def tournament_calendar(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The tournament's day as a calendar file: public, like the tournament's page."""
    tournament = get_object_or_404(Tournament, slug=slug)
    event = tournament_event(tournament, url=absolute(reverse("public-tournament", args=[tournament.slug])))
    return _ics(calendar([event] if event else [], name=tournament.name, now=timezone.now()), f"{tournament.slug}.ics")


@require_GET
def championship_calendar(request: HtmxHttpRequest, championship_slug: str) -> HttpResponse:
    """The championship's days, one event per dated tournament (qualifiers and finals): public, like its page."""
    championship = get_object_or_404(Championship, slug=championship_slug)
    events = [event for tournament in championship.tournaments.all() if (event := tournament_event(
        tournament, url=absolute(reverse("public-tournament", args=[tournament.slug]))))]
    return _ics(calendar(events, name=championship.name, now=timezone.now()), f"{championship.slug}.ics")
