"""Players registering themselves (championships/signup.py): the tournament's form, the emailed confirmation, a
registration cancelled from the private page."""
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from championships import links, places, privacy_notice, signup
from championships.models import Player, Tournament
from core.emails import recipient_wait, refusal
from core.ratelimit import RateLimit
from web.forms import add_service_errors
from web.requests import HtmxHttpRequest

from .forms import RegistrationForm
from .tokens import HANDED_OVER, HOUR, invalid_link, player_link, private_page, tokens_checked, too_many, wait_minutes


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
            return too_many(request, "players/register.html", context, wait, ngettext(
                "Too many registrations from your network: try again in %(n)d minute.",
                "Too many registrations from your network: try again in %(n)d minutes.", wait_minutes(wait))
                % {"n": wait_minutes(wait)})
        if form.is_valid():
            if wait := recipient_wait(form.cleaned_data["email"]):
                return too_many(request, "players/register.html", context, wait, refusal(wait))
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
        return invalid_link(request, _("This confirmation link is not valid. Register again on the tournament's "
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


@private_page
@require_POST
@player_link
def me_cancel(request: HtmxHttpRequest, token: str, registration_id: int, *, player: Player) -> HttpResponse:
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
