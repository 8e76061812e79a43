"""The email a new staff account gets: a link to set its password (Django's password-reset tokens)."""
import logging

from django.contrib.auth.tokens import default_token_generator
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from core.text import one_line

logger = logging.getLogger(__name__)


def set_password_url(request, member) -> str:
    uid = urlsafe_base64_encode(force_bytes(member.pk))
    return request.build_absolute_uri(reverse("password_reset_confirm", args=[uid,
                                                                               default_token_generator.make_token(member)]))


def send_set_password_link(request, member, role) -> None:
    """Sent once the invitation has committed; the link works once and expires (PASSWORD_RESET_TIMEOUT)."""
    where = role.tournament or role.championship
    body = _("%(inviter)s invited you as %(role)s of %(where)s.\n\nYour username is %(user)s. Set your password "
             "here (the link works once):\n%(url)s\n") % {
        "inviter": request.user.get_username(), "role": role.get_role_display(), "where": where,
        "user": member.get_username(), "url": set_password_url(request, member)}
    subject = _("Your staff account for %(where)s") % {"where": where}
    transaction.on_commit(lambda: _send(subject, body, member.email))


def _send(subject: str, body: str, to: str) -> None:
    """A mail server that is down must not turn the committed invitation into an error page; the subject is one
    line (Django refuses a header with a line break)."""
    try:
        send_mail(one_line(subject), body, None, [to])
    except OSError:
        logger.exception("Could not send the set-password link to %s.", to)
