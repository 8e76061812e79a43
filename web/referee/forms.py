"""Forms of the referee's screens; they parse input, the services (sheets, penalties, draws) decide."""
import json
import uuid
from collections.abc import Sequence
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from calls.models import RULING_MAX, Call
from championships.models import Entry, Tournament
from engines.rulesets import ruleset_for
from results.deductions import MAX_DEDUCTION_VP, deduction_label
from results.disqualification import disqualification_help
from results.limits import SIGNATURE_IMAGE_MAX, TEXT_MAX
from results.models import ANNOUNCEMENT_MAX, Penalty, Score, Signature, TiebreakDraw
from results.penalties import MAX_MINUTES_LATE, lateness_rule
from results.sheets import SheetInput
from scheduling.models import Game, Seat


class SheetForm(forms.Form):
    """One VP field per player (in play order, named by entry id), the winner, start and end time."""

    winner = forms.TypedChoiceField(label=_("Winner"), coerce=int, required=False, empty_value=None,
                                    widget=forms.RadioSelect)
    start_time = forms.TimeField(label=_("Start time"), required=False,
                                 widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"))
    end_time = forms.TimeField(label=_("End time"), required=False,
                               widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"))
    base_version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, scores: Sequence[Score], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.scores = scores
        for score in scores:
            self.fields[f"vp_{score.seat.entry_id}"] = forms.IntegerField(
                label=_("VP of %(player)s") % {"player": score.seat.entry.player.name},
                required=False, min_value=0, max_value=12,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": 12, "class": "vp-input"}),
            )
        winner = cast(forms.ChoiceField, self.fields["winner"])
        winner.choices = [(s.seat.entry_id, s.seat.entry.player.name) for s in scores]

    @property
    def rows(self) -> list[tuple[Score, forms.BoundField]]:
        """(score, its bound VP field) in play order: the template's rows."""
        return [(score, self[f"vp_{score.seat.entry_id}"]) for score in self.scores]

    def sheet_input(self) -> SheetInput:
        data = self.cleaned_data
        return SheetInput(
            vps={s.seat.entry_id: data.get(f"vp_{s.seat.entry_id}") for s in self.scores},
            winner=data.get("winner"), start_time=data.get("start_time"), end_time=data.get("end_time"),
        )


class CorrectionForm(SheetForm):
    reason = forms.CharField(label=_("Reason for the correction"), max_length=TEXT_MAX,
                             widget=forms.Textarea(attrs={"rows": 2}),
                             help_text=_("For example: the paper sheet says 8 VP for seat 2."))


class SignatureForm(forms.Form):
    entry = forms.IntegerField(widget=forms.HiddenInput)
    version = forms.IntegerField(widget=forms.HiddenInput)
    method = forms.ChoiceField(choices=Signature.Method.choices, widget=forms.HiddenInput)
    image = forms.CharField(required=False, widget=forms.HiddenInput, max_length=SIGNATURE_IMAGE_MAX)
    decision = forms.CharField(label=_("Referee's decision"), required=False, max_length=TEXT_MAX,
                               widget=forms.Textarea(attrs={"rows": 2}))


class PlayOrderForm(forms.Form):
    """The play order the players of a seeded table chose: one player per position."""

    def __init__(self, *args: Any, seats: Sequence[Seat], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = [(seat.entry_id, seat.entry.player.name) for seat in seats]
        for seat in seats:
            self.fields[f"position_{seat.position}"] = forms.TypedChoiceField(
                label=_("Position %(n)d") % {"n": seat.position}, coerce=int, choices=players,
                initial=seat.entry_id,
            )

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        order = [cleaned.get(name) for name in self.fields]
        if None not in order and len(set(order)) != len(order):
            raise ValidationError(_("Each player takes exactly one position."))
        cleaned["order"] = order
        return cleaned


class SignOffForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput)


class _EntryField(forms.ModelChoiceField):  # type: ignore[type-arg]  # generic in django-stubs only
    """An entry, named by its player."""

    def label_from_instance(self, obj: Entry) -> str:
        return obj.player.name


class _GameField(forms.ModelChoiceField):  # type: ignore[type-arg]  # generic in django-stubs only
    """A game, named by its number."""

    def label_from_instance(self, obj: Game) -> str:
        return _("Game %(n)d") % {"n": obj.number}


PENALTY_KINDS = [("", "—"), *Penalty.Kind.choices]


class PenaltyForm(forms.Form):
    """One penalty; which fields count depends on its kind (the help texts say so, the service decides)."""

    entry = _EntryField(label=_("Player"), queryset=Entry.objects.none())
    kind = forms.ChoiceField(label=_("Penalty"), choices=PENALTY_KINDS)
    minutes = forms.IntegerField(
        label=_("Minutes late"), required=False, min_value=0, max_value=MAX_MINUTES_LATE,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    """Only where the ruleset has a late-arrival rule; its help gives the rule's numbers."""
    deduction = forms.ChoiceField(label=_("VP deduction"), required=False)
    """The ruleset's VP deductions only (`Ruleset.vp_deductions`); the field is left out where it has none."""
    vp = forms.IntegerField(label=_("VP deducted"), required=False, min_value=0, max_value=MAX_DEDUCTION_VP,
                            widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                            help_text=_("VP deduction only: a fixed deduction fills it in itself."))
    ground = forms.ChoiceField(
        label=_("Ground for disqualification"), required=False,
        choices=[("", "—"), *Penalty.Ground.choices],
    )
    """Its help says until when the tournament's ruleset allows a disqualification (`disqualification_help`)."""
    partner = _EntryField(label=_("Other player of the collusion"), queryset=Entry.objects.none(),
                          required=False, help_text=_("Collusion: both players get a warning."))
    game = _GameField(label=_("Game"), queryset=Game.objects.none(), required=False)
    reason = forms.CharField(label=_("Reason"), max_length=TEXT_MAX, required=False,
                             widget=forms.Textarea(attrs={"rows": 2}),
                             help_text=_("Required, except for a late arrival (the minutes are the reason)."))
    request_key = forms.UUIDField(widget=forms.HiddenInput, required=False)

    def __init__(self, data: QueryDict | None = None, *, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(data, initial={"request_key": uuid.uuid4()}, **kwargs)
        entries = tournament.entries.select_related("player").order_by("player__sort_key", "pk")
        for name in ("entry", "partner"):
            cast("forms.ModelChoiceField[Entry]", self.fields[name]).queryset = entries
        cast("forms.ModelChoiceField[Game]", self.fields["game"]).queryset = tournament.games.order_by("number")
        self.fields["ground"].help_text = disqualification_help(tournament.ruleset)
        self.rules = ruleset_for(tournament.ruleset)
        kinds = PENALTY_KINDS
        if self.rules.vp_deductions:
            deduction = cast(forms.ChoiceField, self.fields["deduction"])
            deduction.choices = [("", "—"), *((d.key, deduction_label(d)) for d in self.rules.vp_deductions)]
            deduction.widget.attrs["data-deduction-vp"] = json.dumps(
                {d.key: d.vp for d in self.rules.vp_deductions if d.vp is not None})
        else:  # 001: lateness only, recorded from the minutes; 004: no VP deduction at all
            kinds = [c for c in kinds if c[0] != Penalty.Kind.VP_DEDUCTION]
            del self.fields["deduction"], self.fields["vp"]
        self.lateness = lateness_rule(tournament)
        if self.lateness is None:  # 004, 003: no late-arrival penalty, so none is offered
            kinds = [c for c in kinds if c[0] != Penalty.Kind.LATENESS]
            del self.fields["minutes"]
            self.fields["reason"].help_text = ""
        else:
            rule = {"minutes": self.lateness.admitted_minutes, "vp": self.lateness.vp}
            self.fields["minutes"].help_text = _(
                "Late arrival: minutes after the tournament's official start, once per player. Up to %(minutes)d: "
                "%(vp)d VP off; more than %(minutes)d: the player is not admitted.") % rule
            self.fields["game"].help_text = _("Not for a late arrival: it counts from the official start.")
            self.fields["kind"].widget.attrs["data-lateness-vp"] = self.lateness.vp
        cast(forms.ChoiceField, self.fields["kind"]).choices = kinds

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        kind = cleaned.get("kind")
        if kind == Penalty.Kind.LATENESS:
            assert self.lateness is not None  # a late arrival is offered only where the ruleset has the rule
            if cleaned.get("minutes") is None:
                self.add_error("minutes", _("Give the minutes late (0 if the player was on time)."))
            if cleaned.get("vp") not in (None, self.lateness.vp):
                self.add_error("vp", _("A late arrival costs exactly %(vp)d VP: give the minutes late instead.")
                               % {"vp": self.lateness.vp})
        elif cleaned.get("minutes"):
            self.add_error("minutes", _("Minutes late are for a late arrival only."))
        if kind == Penalty.Kind.VP_DEDUCTION:
            self._clean_deduction(cleaned)
        elif cleaned.get("deduction"):
            self.add_error("deduction", _("Only a VP deduction names which deduction it is."))
        cleaned["vp"] = cleaned.get("vp") or 0
        cleaned["deduction"] = cleaned.get("deduction") or ""
        return cleaned

    def _clean_deduction(self, cleaned: dict[str, Any]) -> None:
        """Which of the ruleset's deductions; a fixed one fills in its VP (the service checks again)."""
        deduction = self.rules.vp_deduction(cleaned.get("deduction") or "")
        if deduction is None:
            self.add_error("deduction", _("Choose which VP deduction it is."))
        elif cleaned.get("vp") is None and deduction.vp is not None:
            cleaned["vp"] = deduction.vp
        elif cleaned.get("vp") is None:
            self.add_error("vp", _("Give the VP the organizers decided (at least 1)."))

    def with_new_request_key(self) -> None:
        """Keep what was typed but send a new key, so submitting again records a new penalty."""
        self.data = cast(QueryDict, self.data).copy()  # bound to request.POST (a Mapping to the stubs)
        self.data[self.add_prefix("request_key")] = str(uuid.uuid4())


class CollusionRulingForm(forms.Form):
    """The referee's decision on a player warned for collusion again: disqualify or not, and why."""

    disqualify = forms.TypedChoiceField(
        label=_("Decision"), widget=forms.RadioSelect, coerce=lambda value: value == "yes",
        choices=[("yes", _("Disqualify (code of conduct)")), ("no", _("Do not disqualify"))],
    )
    reason = forms.CharField(label=_("Reason for the decision"), max_length=TEXT_MAX,
                             widget=forms.Textarea(attrs={"rows": 2}))


class DrawForm(forms.Form):
    """The order a draw gave among one group of tied players: one choice per place."""

    method = forms.ChoiceField(label=_("How the tie was drawn"), choices=TiebreakDraw.Method.choices)
    note = forms.CharField(label=_("Note"), required=False, max_length=TEXT_MAX,
                           widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, players: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.places = []
        for place in range(1, len(players) + 1):
            name = f"place_{place}"
            self.fields[name] = forms.TypedChoiceField(
                label=_("Place %(n)d in the draw") % {"n": place}, coerce=int,
                choices=[("", "—"), *players],
            )
            self.places.append(name)

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        order = [cleaned.get(name) for name in self.places]
        if None not in order and len(set(order)) != len(order):
            raise ValidationError(_("Each player takes exactly one place in the draw."))
        cleaned["order"] = order
        return cleaned


class AnnouncementForm(forms.Form):
    """A notice or ruling for everyone, posted from the desk; the announcements service checks the rest."""

    text = forms.CharField(label=_("Announcement to everyone"), max_length=ANNOUNCEMENT_MAX,
                           widget=forms.Textarea(attrs={"rows": 2}),
                           help_text=_("Shown on the tournament's public page and on the projector."))


class BoardForm(forms.Form):
    """A published game's board: empty for a new random one, or a code typed from a page or a printed sheet."""

    code = forms.CharField(label=_("Board code (empty: a new random board)"), max_length=120, required=False,
                           widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false", "dir": "ltr"}))


class TimedTurnsForm(forms.Form):
    """Timed turns on or off, with the lengths the referee chose (the clocks service checks them against the rules)."""

    turns = forms.ChoiceField(choices=[("on", "on"), ("off", "off")])
    seconds = forms.IntegerField(label=_("Seconds a turn"), required=False, min_value=1, max_value=3600)
    placement_seconds = forms.IntegerField(label=_("Seconds for each initial placement"), required=False,
                                           min_value=1, max_value=3600)


class BankerForm(forms.Form):
    """Who banked at the table: the referee or one of its players; `was` is the banker the form showed."""

    banker = forms.ChoiceField(label=_("Banker (resource cards)"))
    was = forms.CharField(widget=forms.HiddenInput, max_length=20)

    def __init__(self, *args: Any, seats: Sequence[Seat], referee_label: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        banker = cast(forms.ChoiceField, self.fields["banker"])
        banker.choices = [("referee", referee_label),
                          *((str(seat.entry_id), seat.entry.player.name) for seat in seats)]

    def entry_id(self) -> int | None:
        value = self.cleaned_data["banker"]
        return None if value == "referee" else int(value)


class ResolveCallForm(forms.Form):
    """A call closed, with the referee's ruling and what else it does (the calls service checks the rest)."""

    AFTER = (("", _("Nothing more")), ("announce", _("Post the ruling as an announcement")),
             ("timed_turns", _("Start timed turns at this table")))
    ruling = forms.CharField(label=_("Ruling (optional)"), max_length=RULING_MAX, required=False,
                             widget=forms.Textarea(attrs={"rows": 2}))
    then = forms.ChoiceField(label=_("Then"), choices=AFTER, required=False, widget=forms.RadioSelect)


class PassCallForm(forms.Form):
    to = forms.ChoiceField(label=_("Pass the call to"), choices=Call.PassedTo.choices)
