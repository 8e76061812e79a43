"""A championship's API tokens on its console: make one (shown once), see them all, revoke one."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from championships.api_tokens import create_token, revoke_token, tokens_of
from championships.permissions import organized_championship
from web.organize.forms import ApiTokenForm
from web.requests import HtmxHttpRequest


@login_required
@require_http_methods(["GET", "POST"])
def api_tokens(request: HtmxHttpRequest, championship_slug: str) -> HttpResponse:
    """POST `name`: a new token, shown on the answer and never again; POST `revoke`: that token stops working."""
    championship = organized_championship(request.user, championship_slug)
    form, made, plain = ApiTokenForm(), None, ""
    if request.method == "POST":
        if "revoke" in request.POST:
            token_id = request.POST["revoke"]
            token = revoke_token(championship, int(token_id) if token_id.isdigit() else 0, user=request.user)
            messages.success(request, _("The token %(name)s no longer works.") % {"name": token.name})
            return redirect("organize-api-tokens", championship_slug=championship.slug)
        form = ApiTokenForm(request.POST)
        if form.is_valid():
            made, plain = create_token(championship, form.cleaned_data["name"], user=request.user)
            form = ApiTokenForm()
    return render(request, "organize/api_tokens.html", {
        "championship": championship, "tokens": tokens_of(championship), "form": form, "made": made,
        "made_token": plain,
    }, status=422 if form.errors else 200)
