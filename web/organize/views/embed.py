"""The embed for other websites, as its organizers set it up: the websites that may show it in a frame
(`championships.embedding`) and the `<iframe>` snippet to paste into theirs."""
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from championships.embedding import ORIGINS_MAX, TEXT_MAX, listed, set_embed_origins
from championships.permissions import organized_tournament
from core.site import absolute
from web.requests import HtmxHttpRequest


class EmbedForm(forms.Form):
    origins = forms.CharField(
        label=gettext_lazy("Websites that may show the embed"), max_length=TEXT_MAX, required=False,
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false", "autocapitalize": "off"}))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["origins"].help_text = _(
            "One per line, as the address bar shows it up to the first slash, like https://catan-federation.example "
            "(at most %(n)d). Empty: no website may.") % {"n": ORIGINS_MAX}


@login_required
def embed(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = organized_tournament(request.user, slug)
    form = EmbedForm(request.POST or None, initial={"origins": "\n".join(listed(tournament))})
    if request.method == "POST" and form.is_valid():
        try:
            set_embed_origins(tournament.pk, form.cleaned_data["origins"], user=request.user)
        except ValidationError as error:
            form.add_error("origins", error.messages)
        else:
            messages.success(request, _("Saved: only these websites may show the embed."))
            return redirect("organize-embed", slug=tournament.slug)
    address = absolute(reverse("public-embed", args=[tournament.slug]))
    title = _("%(name)s: standings and seating") % {"name": tournament.name}
    return render(request, "organize/embed.html", {
        "tournament": tournament, "form": form, "address": address, "title": title,
        "origins": listed(tournament)}, status=422 if form.errors else 200)
