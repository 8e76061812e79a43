"""Registrations by players (championships/signup.py): the settings, the list to approve or refuse, the waiting
list, its CSV; replacing a player's private link."""
from datetime import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Case, IntegerField, QuerySet, Value, When
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from championships import links, places, signup
from championships.models import Entry, Registration, Tournament
from championships.permissions import organized_tournament
from core.site import absolute
from core.table_export import table_response
from web.forms import add_service_errors
from web.organize.registration_forms import PrivateLinkForm, RefuseForm, RegistrationSettingsForm
from web.requests import HtmxHttpRequest

ORDER = Case(*(When(status=status, then=Value(n)) for n, status in enumerate(
    ["pending", "waiting", "unconfirmed", "entered", "refused", "cancelled"])), output_field=IntegerField())
"""What needs the organizer first: awaiting approval, then the waiting list in its order."""


def _rows(tournament: Tournament, status: str = "") -> QuerySet[Registration]:
    rows = (Registration.objects.filter(tournament=tournament).select_related("country", "player", "entry")
            .annotate(order=ORDER).order_by("order", "confirmed_at", "created_at", "pk"))
    return rows.filter(status=status) if status in Registration.Status.values else rows


@login_required
@require_http_methods(["GET", "POST"])
def registration_list(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = organized_tournament(request.user, slug)
    initial = {"self_registration": tournament.self_registration, "capacity": tournament.capacity,
               "registration_closes": timezone.localtime(tournament.registration_closes)
               if tournament.registration_closes else None,
               "registration_approval": tournament.registration_approval}
    form = RegistrationSettingsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            signup.change_settings(tournament, signup.Settings(**form.cleaned_data), user=request.user)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, _("Registration settings saved."))
            return redirect("organize-registrations", slug=slug)
    status = request.GET.get("status", "")
    rows = list(_rows(tournament, status))
    positions = {r.pk: n for n, r in enumerate(places.waiting(tournament), start=1)}
    for row in rows:
        row.position = positions.get(row.pk)  # type: ignore[attr-defined]  # the page's row: its place in the queue
    entered = (Entry.objects.filter(tournament=tournament).select_related("player").order_by("player__sort_key",
                                                                                                 "pk"))
    return render(request, "organize/registrations.html", {
        "tournament": tournament, "form": form, "rows": rows, "positions": positions, "status": status,
        "statuses": Registration.Status.choices, "closed": signup.why_closed(tournament),
        "places_left": places.places_left(tournament), "taken": places.places_taken(tournament),
        "register_url": absolute(reverse("players-register", args=[slug])),
        "refuse_form": RefuseForm(), "entered": entered, "is_organizer": True,
    }, status=422 if form.errors else 200)


@login_required
@require_POST
def registration_decide(request: HtmxHttpRequest, slug: str, registration_id: int) -> HttpResponse:
    tournament = organized_tournament(request.user, slug)
    registration = get_object_or_404(Registration, pk=registration_id, tournament=tournament)
    action = request.POST.get("action")
    try:
        if action == "approve":
            done = signup.approve(tournament, registration.pk, user=request.user)
            messages.success(request, _("%(player)s: %(status)s.") % {"player": done.name,
                                                                       "status": done.get_status_display()})
        elif action == "refuse":
            form = RefuseForm(request.POST)
            if not form.is_valid():
                raise ValidationError(" ".join(str(m) for ms in form.errors.values() for m in ms))
            signup.refuse(tournament, registration.pk, user=request.user, reason=form.cleaned_data["reason"])
            messages.success(request, _("Registration of %(player)s refused.") % {"player": registration.name})
        else:
            raise ValidationError(_("Unknown action."))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect("organize-registrations", slug=slug)


@login_required
def registration_csv(request: HtmxHttpRequest, slug: str, fmt: str = "csv") -> HttpResponse:
    tournament = organized_tournament(request.user, slug)
    positions = {r.pk: n for n, r in enumerate(places.waiting(tournament), start=1)}

    def when(moment: datetime | None) -> str:
        return timezone.localtime(moment).isoformat(timespec="minutes") if moment else ""
    rows = ([r.name, r.email, r.date_of_birth.isoformat() if r.date_of_birth else "",
             r.country.code if r.country else "", r.city, r.friends.replace("\n", "; "), r.media_opt_out, r.language,
             r.status, r.get_status_display(), positions.get(r.pk, ""), when(r.created_at), when(r.confirmed_at),
             r.reason] for r in _rows(tournament, request.GET.get("status", "")).iterator(chunk_size=500))
    return table_response(fmt, f"{tournament.slug}-registrations",
                          ["name", "email", "date_of_birth", "country", "city", "friends_or_family", "no_photos",
                           "language", "status", "status_label", "waiting_position", "registered_at", "confirmed_at",
                           "reason"], rows)


@login_required
@require_POST
def private_link(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Replace an entered player's private link: every link they had stops working; the new one is emailed, or, for a
    player without an email who plays only in tournaments this organizer runs, shown here once (`links.rotate`)."""
    tournament = organized_tournament(request.user, slug)
    form = PrivateLinkForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a player."))
        return redirect("organize-registrations", slug=slug)
    try:
        player, link = links.rotate(form.cleaned_data["player"], user=request.user, tournament=tournament)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        if link is None:
            messages.success(request, _("The private link of %(player)s is replaced; the new one was emailed to "
                                        "them.") % {"player": player.name})
        else:
            # success, not a warning: the link is replaced (a warning is what the site says when it refuses)
            messages.success(request, _("The private link of %(player)s is replaced. They have no email: give them "
                                        "this link, shown only now: %(link)s") % {"player": player.name,
                                                                                   "link": link})
    return redirect(reverse("organize-registrations", args=[slug]) + "#links")
