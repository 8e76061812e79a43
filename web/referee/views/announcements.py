"""Announcements posted and taken down from the referee's desk."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from championships.permissions import official_tournament
from results.announcements import post_announcement, remove_announcement
from results.models import Announcement
from web.requests import HtmxHttpRequest

from ..forms import AnnouncementForm


@login_required
@require_POST
def post(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = official_tournament(request.user, slug)
    form = AnnouncementForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError(form.errors["text"].as_data())
        post_announcement(tournament.pk, form.cleaned_data["text"], user=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("The announcement is on the tournament's public page."))
    return redirect("referee-desk", slug=slug)


@login_required
@require_POST
def remove(request: HtmxHttpRequest, slug: str, announcement_id: int) -> HttpResponse:
    """Take an announcement down; one already gone (a double tap) just shows the desk again."""
    tournament = official_tournament(request.user, slug)
    found = Announcement.objects.filter(pk=announcement_id).values_list("tournament_id", flat=True).first()
    if found is not None:
        if found != tournament.pk:
            raise Http404("No such announcement in this tournament.")
        remove_announcement(announcement_id, user=request.user)
        messages.success(request, _("The announcement was taken down."))
    return redirect("referee-desk", slug=slug)
