"""Forms of the players, import, relationships, entries and check-in pages: labels, limits, choices."""
from collections.abc import Iterable
from typing import Any, cast

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from championships.countries import country_choices
from championships.eligibility import check_birth_date
from championships.list_dates import FORMAT_LABELS
from championships.list_file import MAX_BYTES
from championships.models import Relationship
from core.text import LineField
from results.limits import TEXT_MAX
from results.penalties import MAX_MINUTES_LATE

SEARCH_MAX = 100


class ErasureForm(forms.Form):
    """An organizer's erasure of a player, on the player's written request."""

    request = LineField(label=_("The player's written request"), max_length=200,
                        help_text=_("Where and when the player asked, e.g. \"email of 30 November\": kept in the "
                                    "activity log, without their name."))
    confirm = forms.BooleanField(label=_("I understand that this cannot be undone"))


class PlayerForm(forms.Form):
    name = LineField(label=_("Name"), max_length=200)
    email = forms.EmailField(label=_("Email"), max_length=254, required=False)
    date_of_birth = forms.DateField(label=_("Date of birth"), required=False, validators=[check_birth_date],
                                    widget=forms.DateInput(attrs={"type": "date"}),
                                    help_text=_("Needed where the championship has a minimum age."))
    country = forms.ChoiceField(label=_("Country"), required=False)
    friend = LineField(label=_("Friend or family member (optional)"), max_length=200, required=False,
                             help_text=_("The name of a registered player: they will not share a table."))
    kind = forms.ChoiceField(label=_("Relationship"), choices=Relationship.Kind.choices,
                             initial=Relationship.Kind.FRIEND)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["country"]).choices = [("", _("— not given —")), *country_choices()]


class FindPlayerForm(forms.Form):
    """A player of another championship is found by what the organizer already knows, never from a list."""

    email = forms.EmailField(label=_("Their exact email"), max_length=254, required=False)
    name = LineField(label=_("or their exact name"), max_length=200, required=False)
    born = forms.DateField(label=_("and date of birth"), required=False, validators=[check_birth_date],
                           widget=forms.DateInput(attrs={"type": "date"}))

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if not self.errors and not data.get("email") and not (data.get("name", "").strip() and data.get("born")):
            raise forms.ValidationError(_("Give the player's email, or their name and date of birth."))
        return data


class ImportUploadForm(forms.Form):
    file = forms.FileField(label=_("Registration list (CSV or XLSX)"), max_length=200,
                           help_text=_("Columns: name, email, date_of_birth, country (name or code), "
                                       "friends_or_family (names separated by ;). Everyone is entered in this "
                                       "tournament. Google Forms and Microsoft Forms exports are read as they "
                                       "are; the preview asks how dates are written."))

    def clean_file(self) -> UploadedFile:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_BYTES:  # a bigger file was not kept while it arrived (core/uploads.py)
            raise forms.ValidationError(_("%(file)s is larger than %(mb)d MB.")
                                        % {"file": upload.name, "mb": MAX_BYTES >> 20})
        return cast(UploadedFile, upload)


class ImportConfirmForm(forms.Form):
    token = forms.CharField(widget=forms.HiddenInput, max_length=2_000_000)
    date_format = forms.ChoiceField(label=_("Dates of birth are written"), required=False,
                                    choices=list(FORMAT_LABELS.items()),
                                    widget=forms.Select(attrs={"form": "import-confirm",
                                                               "aria-describedby": "date-guess"}))
    """The preview's choice (the select sits outside the form it is posted with); blank keeps the one shown."""


class RelationshipForm(forms.Form):
    one = forms.TypedChoiceField(label=_("Player"), coerce=int)
    other = forms.TypedChoiceField(label=_("Friend or family member"), coerce=int)
    kind = forms.ChoiceField(label=_("Relationship"), choices=Relationship.Kind.choices)

    def __init__(self, *args: Any, players: Iterable[tuple[int, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", _("— choose —")), *players]
        for name in ("one", "other"):
            cast(forms.ChoiceField, self.fields[name]).choices = choices

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("one") and data.get("one") == data.get("other"):
            raise forms.ValidationError(_("Choose two different players."))
        return data


class SearchForm(forms.Form):
    q = forms.CharField(label=_("Search by name or email"), max_length=SEARCH_MAX, required=False)


def search_query(source: QueryDict) -> str:
    """The search text of a GET or POST (`q`); too long or missing searches for nothing."""
    form = SearchForm(source)
    return form.cleaned_data["q"] if form.is_valid() else ""


class LateForm(forms.Form):
    """A late check-in: the minutes are typed by the organizer, never taken from the clock."""

    minutes_late = forms.IntegerField(label=_("Minutes late"), min_value=1, max_value=MAX_MINUTES_LATE)


class UndoForm(forms.Form):
    reason = forms.CharField(label=_("Reason for undoing it"), max_length=TEXT_MAX)


class WithdrawForm(forms.Form):
    reason = forms.CharField(label=_("Reason for the withdrawal"), max_length=TEXT_MAX)
