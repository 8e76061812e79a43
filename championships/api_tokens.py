"""Organizers' API tokens (issue 27): made and revoked on the championship's console page, used by a federation's
scripts against API v1's writes (web/api/organizer.py).

A token is long and random and shown once, when it is made; only its digest is stored, and a request finds its
token by that digest, as a player's private link is found (`championships.links`). A token acts as its owner and
only while the owner still organizes its championship; every write it makes goes through the usual services, so
the activity log records it under the owner's name, like a change made on the pages.
"""
import secrets

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils import timezone

from audit.actions import Action
from audit.services import record_change
from championships.links import digest
from championships.models import Championship
from championships.permissions import require_championship_organizer

from .models import ApiToken

PREFIX = "catan_"
"""Marks the string as one of ours (secret scanners and people recognise it)."""
TOKEN_BYTES = 32


def create_token(championship: Championship, name: str, *, user) -> tuple[ApiToken, str]:
    """A new token of `user` for the championship: (the stored row, the token itself, to be shown once)."""
    require_championship_organizer(user, championship)
    plain = PREFIX + secrets.token_urlsafe(TOKEN_BYTES)
    with transaction.atomic():
        token = ApiToken.objects.create(user=user, championship=championship, name=name.strip(),
                                        digest=digest(plain), hint=plain[len(PREFIX):][:6])
        record_change(user, None, Action.TOKEN_CREATED, token, championship_id=championship.pk,
                      after={"name": token.name, "championship": championship.slug})
    return token, plain


def revoke_token(championship: Championship, token_id: int, *, user) -> ApiToken:
    """Stop the token working at once; any organizer of the championship may revoke any of its tokens."""
    require_championship_organizer(user, championship)
    with transaction.atomic():
        token = get_object_or_404(ApiToken.objects.select_for_update(), pk=token_id, championship=championship)
        if token.revoked_at is None:
            token.revoked_at = timezone.now()
            token.save(update_fields=["revoked_at"])
            record_change(user, None, Action.TOKEN_REVOKED, token, after={"name": token.name},
                          championship_id=championship.pk)
    return token


def tokens_of(championship: Championship) -> list[ApiToken]:
    """Every token of the championship, newest first, with its owner."""
    return list(championship.api_tokens.select_related("user"))


def active_token(plain: str) -> ApiToken | None:
    """The token a request names, if it is not revoked and its owner still organizes its championship."""
    if not plain.startswith(PREFIX) or len(plain) > 100:
        return None
    token = (ApiToken.objects.select_related("user", "championship")
             .filter(digest=digest(plain), revoked_at__isnull=True, user__is_active=True).first())
    if token is None:
        return None
    try:
        require_championship_organizer(token.user, token.championship)
    except PermissionDenied:
        return None
    return token
