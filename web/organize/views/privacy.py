"""A championship's privacy notice, written by its organizers (championships/privacy_notice.py): each save a new
version, so every registration keeps the text its player accepted."""
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from championships import privacy_notice
from championships.models import PrivacyNotice
from championships.permissions import organized_championship
from web.forms import add_service_errors
from web.requests import HtmxHttpRequest


class NoticeForm(forms.Form):
    text = forms.CharField(label=gettext_lazy("Privacy notice"), max_length=PrivacyNotice.TEXT_MAX,
                           widget=forms.Textarea(attrs={"rows": 14}))


@login_required
def notice(request: HtmxHttpRequest, championship_slug: str) -> HttpResponse:
    championship = organized_championship(request.user, championship_slug)
    form = NoticeForm(request.POST or None, initial={"text": privacy_notice.text_of(championship)})
    if request.method == "POST" and form.is_valid():
        try:
            saved = privacy_notice.change(championship, form.cleaned_data["text"], user=request.user)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, _("Saved as version %(n)d: new registrations accept this text.")
                             % {"n": saved.version})
            return redirect("organize-privacy-notice", championship_slug=championship.slug)
    return render(request, "organize/privacy_notice.html", {
        "championship": championship, "form": form, "current": privacy_notice.current(championship)},
        status=422 if form.errors else 200)
