"""The email a new staff account gets: a link to set its password (Django's password-reset tokens)."""
from django.contrib.auth.tokens import default_token_generator
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from core.mail import queue_email
from core.site import absolute


def set_password_url(member) -> str:
    uid = urlsafe_base64_encode(force_bytes(member.pk))
    return absolute(reverse("password_reset_confirm", args=[uid, default_token_generator.make_token(member)]))


def send_set_password_link(member, role, *, inviter) -> None:
    """Queued once the invitation has committed (`core.mail`); the link works once and expires
    (PASSWORD_RESET_TIMEOUT)."""
    where = role.tournament or role.championship
    body = _("%(inviter)s invited you as %(role)s of %(where)s.\n\nYour username is %(user)s. Set your password "
             "here (the link works once):\n%(url)s\n") % {
        "inviter": inviter.get_username(), "role": role.get_role_display(), "where": where,
        "user": member.get_username(), "url": set_password_url(member)}
    subject = _("Your staff account for %(where)s") % {"where": where}
    queue_email(member.email, subject, body, about=[where])
