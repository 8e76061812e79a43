"""A championship's fairness limits for random boards, switched on or off from its console page."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from championships.models import Championship
from scheduling.boards import set_board_limits
from web.organize.forms import BoardLimitsForm
from web.requests import HtmxHttpRequest


@login_required
@require_POST
def board_limits(request: HtmxHttpRequest, championship_slug: str) -> HttpResponse:
    championship = get_object_or_404(Championship, slug=championship_slug)
    form = BoardLimitsForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError(form.errors["limits"].as_data())
        set_board_limits(championship.pk, form.cleaned_data["limits"], user=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Boards dealt from now on keep these limits; boards already dealt stay."))
    return redirect("organize-championship", championship_slug=championship.slug)
