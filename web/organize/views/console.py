"""The organizer's console: their events with what needs doing next, one tournament's page, its status and staff."""
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from championships.models import Championship, StaffRole, Tournament
from championships.permissions import (
    is_organizer,
    organized_championship,
    organized_tournament,
)
from championships.setup import close_tournament, reopen_tournament
from championships.staff import invite_staff, remove_staff
from championships.staff_signin import lift_signin_pause, paused_roles
from notices import undelivered
from notices.invitations import send_set_password_link
from notices.start_time import notice_summary
from printing.documents import printable_games
from ranking.selectors import podium
from results.selectors import any_game_published, tables_missing_results
from results.tablets import waiting_on_tablets
from web.forms import add_service_errors
from web.organize.dashboard import dashboard, next_steps
from web.organize.forms import BoardLimitsForm, InviteForm, StatusForm
from web.organize.print_forms import PrintJobForm
from web.public.printing import tournament_paper
from web.requests import HtmxHttpRequest

PEOPLE_PAGES = (("organize-players", gettext_lazy("Players")), ("organize-entries", gettext_lazy("Entries")),
                ("organize-registrations", gettext_lazy("Registrations by players and private links")),
                ("organize-checkin", gettext_lazy("Check-in")))
"""The tournament's people pages, linked from its console page."""


@login_required
@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "organize/home.html", {
        "cards": dashboard(request.user),
        "can_create": request.user.has_perm("championships.add_championship"),
    })


def print_panel(request: HtmxHttpRequest, tournament: Tournament) -> dict[str, Any]:
    """The console's print section (each seated game's PDFs, the form that lays a whole game out in the
    background) and who was told the official start time."""
    games = printable_games(tournament)
    paper = tournament_paper(request, tournament)
    return {"printable_games": games, "print_job_form": PrintJobForm(games=games, paper=paper),
            "notices": notice_summary(tournament, request.user)}


@login_required
@require_GET
def tournament(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = organized_tournament(request.user, slug)
    people_links = [(reverse(name, args=[slug]), label) for name, label in PEOPLE_PAGES]
    return render(request, "organize/tournament.html", {
        "tournament": tournament, "steps": next_steps([tournament])[tournament.pk],
        "stages": tournament.stages.order_by("order"), **_missing_results(tournament),
        "podium": podium(tournament), "status_form": StatusForm(), "optional_links": people_links,
        "is_organizer": True, **print_panel(request, tournament),
        "emails_waiting": undelivered.waiting(tournament, request.user),
    })


@login_required
@require_GET
def missing(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The live list of tables still missing results (polled by the console page)."""
    tournament = organized_tournament(request.user, slug)
    return render(request, "organize/_missing.html", {"tournament": tournament, **_missing_results(tournament)})


def _missing_results(tournament: Tournament) -> dict[str, Any]:
    """Tables still missing results; before any game is published the list says that, not 'every table'. A table
    whose result a referee's tablet reported as waiting on it (typed offline, not sent yet) says so."""
    missing = tables_missing_results(tournament)
    open_tables = {table.pk for table in missing}
    return {"missing": missing, "nothing_published": not any_game_published(tournament),
            "on_tablets": {pk: waiting for pk, waiting in waiting_on_tablets(tournament).items() if pk in open_tables}}


@login_required
@require_POST
def change_status(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = organized_tournament(request.user, slug)
    form = StatusForm(request.POST)
    action = request.POST.get("action")
    if form.is_valid() and action in ("close", "reopen"):
        service = close_tournament if action == "close" else reopen_tournament
        try:
            tournament = service(tournament.pk, user=request.user, reason=form.cleaned_data["reason"])
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("%(t)s is now %(status)s.")
                             % {"t": tournament.name, "status": tournament.get_status_display()})
    else:
        messages.error(request, _("Give the reason for closing or reopening the tournament."))
    return redirect(reverse("organize-tournament", args=[slug]) + "#status")


def _staff_page(request: HtmxHttpRequest, *, tournament: Tournament | None = None,
                championship: Championship | None = None) -> HttpResponse:
    scope: dict[str, Tournament | Championship | None] = (
        {"tournament": tournament} if tournament is not None else {"championship": championship})
    form = InviteForm(request.POST or None, organizers_only=championship is not None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                invitation = invite_staff(form.cleaned_data["identifier"], form.cleaned_data["role"],
                                          user=request.user, tournament=tournament, championship=championship)
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                name = invitation.member.get_username()
                if invitation.new_account:
                    send_set_password_link(invitation.member, invitation.role, inviter=request.user)
                    messages.success(request, _("An account %(user)s was created and a link to set its password "
                                                "was sent to %(email)s.")
                                     % {"user": name, "email": invitation.member.email})
                else:
                    messages.success(request, _("%(user)s is now %(role)s.")
                                     % {"user": name, "role": invitation.role.get_role_display()})
                return redirect(request.path)
        status = 422
    roles = StaffRole.objects.filter(**scope).select_related("user").order_by("role", "user__username")
    inherited = (StaffRole.objects.filter(championship_id=tournament.championship_id).select_related("user")
                 if tournament is not None and tournament.championship_id else [])
    return render(request, "organize/staff.html", {
        "tournament": tournament, "championship": championship, "roles": roles, "inherited": inherited,
        "form": form, "is_organizer": True, "paused": paused_roles(roles),
    }, status=status)


@login_required
def tournament_staff(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    return _staff_page(request, tournament=organized_tournament(request.user, slug))


@login_required
def championship_staff(request: HtmxHttpRequest, championship_slug: str) -> HttpResponse:
    return _staff_page(request, championship=organized_championship(request.user, championship_slug))


def _back_to_staff_page(role: StaffRole) -> HttpResponse:
    """The staff page that lists the role: its tournament's, or its championship's."""
    if role.tournament is not None:
        return redirect("organize-staff", slug=role.tournament.slug)
    assert role.championship is not None  # a role has one or the other (constraint staff_role_scope)
    return redirect("organize-championship-staff", championship_slug=role.championship.slug)


@login_required
@require_POST
def remove_role(request: HtmxHttpRequest, role_id: int) -> HttpResponse:
    role = get_object_or_404(StaffRole.objects.select_related("tournament", "championship", "user"), pk=role_id)
    try:
        remove_staff(role.pk, user=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("%(user)s is no longer %(role)s.")
                         % {"user": role.user.get_username(), "role": role.get_role_display()})
    return _back_to_staff_page(role)


@login_required
@require_POST
def unlock_role(request: HtmxHttpRequest, role_id: int) -> HttpResponse:
    """Lift the sign-in pause of a staff member of a tournament (or championship) the user organizes."""
    role = get_object_or_404(StaffRole.objects.select_related("tournament", "championship", "user"), pk=role_id)
    lift_signin_pause(role.pk, user=request.user)
    messages.success(request, _("%(user)s can sign in again.") % {"user": role.user.get_username()})
    return _back_to_staff_page(role)


@login_required
@require_GET
def championship(request: HtmxHttpRequest, championship_slug: str) -> HttpResponse:
    """A championship's tournaments with their next steps, and its champion once the finals are signed off."""
    championship = get_object_or_404(Championship, slug=championship_slug)
    tournaments = list(championship.tournaments.all())
    organizes = request.user.is_superuser or championship.staff.filter(
        user=request.user, role=StaffRole.Role.ORGANIZER).exists()  # type: ignore[misc]  # login_required: a User
    visible = tournaments if organizes else [t for t in tournaments if is_organizer(request.user, t)]
    if not visible and not organizes:
        raise PermissionDenied(_("Only an organizer of this championship may see this page."))
    steps = next_steps(visible)
    deciding = next((t for t in tournaments if t.crowns_champion), None)
    return render(request, "organize/championship.html", {
        "championship": championship, "tournaments": [(t, steps[t.pk]) for t in visible],
        "deciding": deciding, "podium": podium(deciding) if deciding else [], "organizes": organizes,
        "limits_form": BoardLimitsForm(initial={"limits": championship.board_limits}),
    })
