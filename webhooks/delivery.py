"""How a delivery goes out: its JSON body, its signature, one attempt, and the retries after a failure.

The body is written once, when the event happens (`body_for`), and every attempt posts it unchanged with a fresh
timestamp, signed the Standard Webhooks way (standardwebhooks.com, so the receivers' libraries of Svix, Zapier and
others verify it): `webhook-id` (the delivery, the same on every attempt: a receiver may use it to ignore a
repeat), `webhook-timestamp` (Unix seconds) and `webhook-signature: v1,<base64>`, the HMAC-SHA256 of
"<id>.<timestamp>.<body>" keyed by the webhook's secret (given to the receiver as `whsec_<base64 of the key>`).
The site's first headers stay for a deprecation period (docs/interfaces.md): `X-Catan-Timestamp`,
`X-Catan-Signature: sha256=<hex>` (the HMAC-SHA256 of "<timestamp>.<body>"), `X-Catan-Event` and
`X-Catan-Delivery`.

An attempt has the outbound guard's deadline in all (`core.outbound.DEADLINE_SECONDS`, from connecting to the
answer) and its limits on the answer. An attempt that gets no 2xx answer (an error code, a redirect, no answer
within the deadline, a refused connection, an answer past a limit) is tried again after `BACKOFF` (1 minute,
5 minutes, 30 minutes, 2 hours), `MAX_ATTEMPTS` in all; an address refused as local or private is not tried again;
a webhook whose deliveries keep failing is turned off (`failing`). The retries run through
`core.jobs.run_again_later`, and `send_overdue` (Celery beat) sends any retry its process lost.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from core import jobs as core_jobs
from core import outbound

from .failing import turn_off_if_failing
from .models import Delivery

logger = logging.getLogger(__name__)

BACKOFF = (60, 5 * 60, 30 * 60, 2 * 3600)
"""Seconds before the next attempt, after the first, second… failed one."""
MAX_ATTEMPTS = len(BACKOFF) + 1
OVERDUE = timedelta(minutes=2)
"""A retry this late was lost (its process restarted before its timer): the sweep sends it."""
USER_AGENT = "CatanTournaments-Webhook/1"


def body_for(payload: dict[str, Any]) -> str:
    """The JSON text as posted: compact, keys sorted, non-ASCII as it is (UTF-8)."""
    return json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The `X-Catan-Signature` value: HMAC-SHA256 over "<timestamp>.<body>" with the webhook's secret."""
    signed = str(timestamp).encode() + b"." + body
    return "sha256=" + hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()


SECRET_PREFIX = "whsec_"


def standard_secret(secret: str) -> str:
    """The webhook's secret as Standard Webhooks libraries take it: `whsec_` and the base64 of the key's bytes (the
    same key that signs `X-Catan-Signature`)."""
    return SECRET_PREFIX + base64.b64encode(secret.encode()).decode()


def standard_signature(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    """The `webhook-signature` value (Standard Webhooks): `v1,` and the base64 HMAC-SHA256 of
    "<id>.<timestamp>.<body>"."""
    signed = f"{message_id}.{timestamp}.".encode() + body
    return "v1," + base64.b64encode(hmac.new(secret.encode(), signed, hashlib.sha256).digest()).decode()


def headers_for(delivery: Delivery, body: bytes, now: int) -> dict[str, str]:
    """Standard Webhooks' three headers (the id the same on every attempt, the timestamp and signature fresh), and
    the site's own `X-Catan-*` ones, deprecated since 2 December 2026 and sent until 30 June 2027
    (docs/interfaces.md)."""
    secret, uid = delivery.webhook.secret, str(delivery.uid)
    return {"Content-Type": "application/json; charset=utf-8", "User-Agent": USER_AGENT,
            "webhook-id": uid, "webhook-timestamp": str(now),
            "webhook-signature": standard_signature(secret, uid, now, body),
            "X-Catan-Event": delivery.event, "X-Catan-Delivery": uid,
            "X-Catan-Timestamp": str(now), "X-Catan-Signature": signature(secret, now, body)}


def backoff(attempts: int) -> int:
    """Seconds to wait after `attempts` failed attempts."""
    return BACKOFF[min(attempts, len(BACKOFF)) - 1]


def attempt(delivery_id: int, task: Any, clock: Callable[[], float] = time.time) -> None:
    """One attempt at the delivery, if no other runner has it: posted, then finished, or queued again for later."""
    if not core_jobs.claim(Delivery, delivery_id):
        return
    delivery = Delivery.objects.select_related("webhook").get(pk=delivery_id)
    attempts = delivery.attempts + 1
    if not delivery.webhook.active:
        core_jobs.finish(Delivery, delivery_id, Delivery.Status.FAILED, _("The webhook is turned off."),
                         next_attempt_at=None)
        return
    body = delivery.body.encode()
    retry = True
    status, answer, problem = None, "", ""
    try:
        response = outbound.post(delivery.webhook.url, body, headers_for(delivery, body, int(clock())))
        status, answer = response.status, response.body
        if not 200 <= response.status < 300:
            problem = _("The receiver answered %(code)d.") % {"code": response.status}
    except outbound.Refused as error:
        problem, retry = str(error), False
    except outbound.Failed as error:  # refused, reset, past the deadline or a limit of the guard
        problem = str(error)
    result: dict[str, Any] = {"attempts": attempts, "response_status": status, "response_body": answer}
    if not problem:
        core_jobs.finish(Delivery, delivery_id, Delivery.Status.SUCCEEDED, "", next_attempt_at=None, **result)
    elif retry and attempts < MAX_ATTEMPTS:
        wait = backoff(attempts)
        core_jobs.run_again_later(Delivery, delivery_id, task, wait, problem,
                                  next_attempt_at=timezone.now() + timedelta(seconds=wait), **result)
    else:
        logger.info("Webhook delivery %s failed for good after %d attempts.", delivery_id, attempts)
        core_jobs.finish(Delivery, delivery_id, Delivery.Status.FAILED, problem, next_attempt_at=None, **result)
        turn_off_if_failing(delivery.webhook_id)


def overdue(now: datetime | None = None) -> list[int]:
    """Deliveries whose retry should have run a while ago (their process stopped before its timer)."""
    return list(Delivery.objects.filter(status=Delivery.Status.QUEUED,
                                        next_attempt_at__lt=(now or timezone.now()) - OVERDUE)
                .values_list("pk", flat=True)[:500])
