"""The staff accounts' pages that need more than Django's own views: signing in, the pause page, password reset.

Signing in marks the browser as known for that username (core/signin.py, which also decides the pauses).
A password reset is asked at most `PASSWORD_RESETS_PER_ADDRESS` times an hour per client (`RateLimit.hit_client`),
and counted against the email typed with every other email the site sends to a typed address
(`core.emails.recipient_wait`), whether or not an account has it, so the answer tells nobody which emails do.
"""
import math

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm
from django.shortcuts import render
from django.template import loader
from django.utils.translation import get_language, ngettext

from core import site
from core.emails import recipient_wait, refusal
from core.language import address_in, keep_language
from core.mail import queue_email
from core.ratelimit import RateLimit
from core.signin import remember_browser, request_pause

HOUR = 3600


def _minutes(seconds: float) -> int:
    return max(1, math.ceil(seconds / 60))


class SignInView(auth_views.LoginView):
    """Signing in keeps the sign-in page's language: the page it goes on to is that page in this language, and the
    language cookie remembers it for the next visit from outside (core/language.py)."""

    def get_success_url(self):
        return address_in(super().get_success_url(), get_language())

    def form_valid(self, form):
        response = super().form_valid(form)
        remember_browser(self.request, response, form.get_user().get_username())
        keep_language(self.request, response)
        return response


class SignOutView(auth_views.LogoutView):
    """Signing out also empties what the referee's tablet kept for offline use (issue 28): the pages cached by the
    service worker, its queue and registration ("storage"), and the browser's HTTP cache. Cookies stay (the
    browser stays known for sign-in, core/signin.py). The service worker clears its own caches too, as it sees
    this request go by, for browsers that ignore the header."""

    def post(self, request, *args, **kwargs):
        response = super().post(request, *args, **kwargs)
        response["Clear-Site-Data"] = '"cache", "storage"'
        return response


def signin_paused(request, original_response=None, credentials=None):
    """django-axes' answer to a paused username and address: 429, how long, and who can lift it."""
    left, _length = request_pause(request, credentials)
    seconds = max(1, math.ceil(left.total_seconds()))
    response = render(request, "registration/signin_paused.html", {"minutes": _minutes(seconds)}, status=429)
    response["Retry-After"] = str(seconds)
    return response


class QueuedPasswordResetForm(PasswordResetForm):
    """Django's form, its email sent from the one email queue (core.mail), so a slow or failing mail server never
    holds or breaks the page."""

    def send_mail(self, subject_template_name, email_template_name, context, from_email, to_email,
                  html_email_template_name=None):
        subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
        queue_email(to_email, subject, loader.render_to_string(email_template_name, context))


class PasswordResetView(auth_views.PasswordResetView):
    """Django's view, with the two limits checked (and counted) before any email is sent; its link is on the site's
    address (core.site), not on the host the request came by."""

    template_name = "registration/password_reset_form.html"
    form_class = QueuedPasswordResetForm

    @property
    def extra_email_context(self):
        return {"protocol": "https" if site.is_https() else "http", "domain": site.netloc(),
                "site_name": site.netloc()}

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "per_account": settings.EMAILS_PER_RECIPIENT_HOUR}

    def form_valid(self, form):
        wait = RateLimit("password-reset-address", settings.PASSWORD_RESETS_PER_ADDRESS, HOUR).hit_client(self.request)
        if wait:
            problem = ngettext("Too many password-reset requests from your network: try again in %(n)d minute.",
                               "Too many password-reset requests from your network: try again in %(n)d minutes.",
                               _minutes(wait)) % {"n": _minutes(wait)}
        else:
            wait = recipient_wait(form.cleaned_data["email"])
            problem = refusal(wait)
        if not wait:
            return super().form_valid(form)
        form.add_error(None, problem)
        response = self.render_to_response(self.get_context_data(form=form), status=429)
        response["Retry-After"] = str(wait)
        return response

