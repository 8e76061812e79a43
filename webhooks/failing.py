"""A webhook whose receiver keeps failing is turned off, and the championship's organizers are told by email.

Each event makes a delivery, and each delivery is tried five times over two and a half hours (`delivery.BACKOFF`):
without this, a receiver that is gone for good would be posted to for the rest of the championship, every attempt
holding a worker up to its timeout. After `FAILURES_IN_A_ROW` deliveries failed for good, with none taken since
the webhook was made or last turned on, it is turned off (audited as done by the site) and each organizer of
the championship with an email address gets one email, in the site's language. Turning it on again in the console
starts the count afresh.
"""
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from audit.actions import Action
from audit.services import record_change
from championships.models import StaffRole
from core.mail import queue_email
from core.site import absolute

from .models import Delivery, Webhook

FAILURES_IN_A_ROW = 5


def turn_off_if_failing(webhook_id: int) -> bool:
    """Turn the webhook off if its last `FAILURES_IN_A_ROW` finished deliveries since it was turned on all failed;
    True if it was turned off now."""
    with transaction.atomic():
        webhook = Webhook.objects.select_for_update().select_related("championship").filter(pk=webhook_id).first()
        if webhook is None or not webhook.active:
            return False
        last = list(Delivery.objects.filter(webhook=webhook, created_at__gte=webhook.counted_from,
                                            status__in=(Delivery.Status.FAILED, Delivery.Status.SUCCEEDED))
                    .order_by("-updated_at", "-pk").values_list("status", flat=True)[:FAILURES_IN_A_ROW])
        if len(last) < FAILURES_IN_A_ROW or any(status != Delivery.Status.FAILED for status in last):
            return False
        webhook.active, webhook.turned_off_automatically = False, True
        webhook.save(update_fields=["active", "turned_off_automatically"])
        reason = ngettext("%(count)d delivery in a row failed.", "%(count)d deliveries in a row failed.",
                          FAILURES_IN_A_ROW) % {"count": FAILURES_IN_A_ROW}
        record_change(None, None, Action.WEBHOOK_FAILING, webhook, after={"url": webhook.url}, reason=reason,
                      championship_id=webhook.championship_id)
        _tell_organizers(webhook, reason)
    return True


def _tell_organizers(webhook: Webhook, reason: str) -> None:
    championship = webhook.championship
    console = absolute(reverse("organize-webhooks", args=[championship.slug]))
    subject = _("Webhook turned off: %(championship)s") % {"championship": championship.name}
    body = _("The webhook %(url)s of %(championship)s was turned off: %(reason)s Nothing more is sent to it.\n\n"
             "Once its receiver answers again, turn it on in the console (failed deliveries can be sent again "
             "there):\n%(console)s\n") % {"url": webhook.url, "championship": championship.name, "reason": reason,
                                          "console": console}
    emails = (StaffRole.objects.filter(championship=championship, role=StaffRole.Role.ORGANIZER)
              .exclude(user__email="").values_list("user__email", flat=True).distinct())
    for email in sorted(set(emails)):
        queue_email(email, subject, body, about=[championship])
