"""The console's form that starts a print job: which game, which document, which paper."""
from collections.abc import Sequence
from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from core.pdf import A4, LETTER
from printing.models import PrintJob
from scheduling.models import Game


class PrintJobForm(forms.Form):
    game = forms.TypedChoiceField(label=_("Game"), coerce=int)
    kind = forms.ChoiceField(label=_("Document"), choices=PrintJob.Kind.choices)
    paper = forms.ChoiceField(label=_("Paper"), choices=[(A4, "A4"), (LETTER, _("US Letter"))])

    def __init__(self, *args: Any, games: Sequence[Game] = (), paper: str = A4, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        game = cast(forms.ChoiceField, self.fields["game"])
        game.choices = [(g.number, _("Game %(n)s") % {"n": g.number}) for g in games]
        self.fields["paper"].initial = paper
