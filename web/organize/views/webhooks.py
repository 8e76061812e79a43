"""A championship's webhooks on its console: register one, turn it off or on, remove it, send a test delivery, give
it a new signing secret, and the recent deliveries with their answers (a failed one sent again; also as CSV and
XLSX)."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from championships.models import Championship
from championships.permissions import organized_championship
from core.table_export import table_response
from web.forms import add_service_errors
from web.organize.webhook_forms import WebhookForm
from web.requests import HtmxHttpRequest
from webhooks import services
from webhooks.delivery import standard_secret
from webhooks.models import Format

ACTIONS = ("turn_off", "turn_on", "remove", "ping", "send_again", "set_format")


def _chosen(request: HtmxHttpRequest) -> int:
    value = next((request.POST[name] for name in ACTIONS if name in request.POST), "")
    return int(value) if value.isdigit() else 0


def _act(request: HtmxHttpRequest, championship: Championship) -> None:
    """One button of a webhook's row: the service, then a message saying what happened."""
    webhook_id, user = _chosen(request), request.user
    if "send_again" in request.POST:
        try:
            services.send_again(championship, webhook_id, user=user)  # the delivery's id
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("The delivery is sent again; its answer appears below."))
    elif "set_format" in request.POST:
        try:
            services.set_format(championship, webhook_id, request.POST.get("format", ""), user=user)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("The webhook's format is changed: the next events are posted in it."))
    elif "remove" in request.POST:
        services.remove_webhook(championship, webhook_id, user=user)
        messages.success(request, _("The webhook is removed."))
    elif "ping" in request.POST:
        services.ping(championship, webhook_id, user=user)
        messages.success(request, _("A test delivery is on its way; its answer appears below."))
    else:
        active = "turn_on" in request.POST
        services.set_active(championship, webhook_id, active, user=user)
        messages.success(request, _("The webhook is turned on.") if active else _("The webhook is turned off."))


@login_required
@require_http_methods(["GET", "POST"])
def webhooks(request: HtmxHttpRequest, championship_slug: str) -> HttpResponse:
    """POST `url` and `events`: a new webhook, its signing secret shown on the answer and never again; POST
    `new_secret` (a webhook's id): a new one, shown the same way; POST `turn_off`, `turn_on`, `remove` or `ping` (a
    webhook's id), `set_format` (a webhook's id, with `format`), or `send_again` (a failed delivery's id)."""
    championship = organized_championship(request.user, championship_slug)
    form, made = WebhookForm(), None
    if request.method == "POST":
        if "new_secret" in request.POST:
            value = request.POST["new_secret"]
            made = services.new_secret(championship, int(value) if value.isdigit() else 0, user=request.user)
        elif any(name in request.POST for name in ACTIONS):
            _act(request, championship)
            return redirect("organize-webhooks", championship_slug=championship.slug)
        else:
            form = WebhookForm(request.POST)
        if made is None and form.is_valid():
            try:
                made = services.add_webhook(championship, form.cleaned_data["url"], form.cleaned_data["events"],
                                            user=request.user, format_=form.cleaned_data["format"] or Format.JSON)
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                form = WebhookForm()
    return render(request, "organize/webhooks.html", {
        "championship": championship, "webhooks": services.webhooks_of(championship), "form": form,
        "made": made, "formats": Format.choices, "made_secret": standard_secret(made.secret) if made else "",
        "deliveries": services.recent_deliveries(championship),
    }, status=422 if form.errors else 200)


@login_required
@require_GET
def deliveries_csv(request: HtmxHttpRequest, championship_slug: str, fmt: str = "csv") -> HttpResponse:
    """Every delivery of the championship's webhooks, newest first, with fixed English column names; as CSV or
    (`fmt`) a workbook."""
    championship = organized_championship(request.user, championship_slug)
    rows = ([d.created_at.isoformat(), d.event, d.webhook.url, d.status, d.attempts, d.response_status or "",
             d.response_body, d.message, d.next_attempt_at.isoformat() if d.next_attempt_at else "", d.uid]
            for d in services.recent_deliveries(championship, limit=None))
    return table_response(fmt, f"{championship.slug}-webhook-deliveries",
                          ["created", "event", "url", "status", "attempts", "response_code", "response", "problem",
                           "next_attempt", "delivery"], rows)
