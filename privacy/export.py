"""A player's own copy of everything the site keeps about them (docs/privacy.md), built from the registry of
personal data (core/personal_data.py), so a model that joins it is in the copy without a change here."""
import json
from dataclasses import dataclass

from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from championships.models import Player
from core.personal_data import Holding, holdings

FORMAT = "catan-player-data"
TITLES = {
    "championships.player": gettext_lazy("Your player record"),
    "championships.entry": gettext_lazy("Your entries"),
    "championships.registration": gettext_lazy("Your registrations"),
    "championships.playerlink": gettext_lazy("Your private links"),
    "championships.pushsubscription": gettext_lazy("Phone notifications"),
    "championships.entryinvitation": gettext_lazy("Invitations to enter a tournament"),
    "championships.declaration": gettext_lazy("Friends and family you declared"),
    "championships.relationship": gettext_lazy("Friends and family"),
    "audit.auditentry": gettext_lazy("Activity log entries about you"),
    "notices.starttimenotice": gettext_lazy("Start-time emails"),
    "notices.undeliveredemail": gettext_lazy("Emails that could not be sent"),
    "ratings.playerrating": gettext_lazy("Your ratings"),
    "ratings.ratingchange": gettext_lazy("Rating changes"),
    "results.collusionruling": gettext_lazy("Collusion rulings"),
    "results.objection": gettext_lazy("Objections to a result"),
    "results.penalty": gettext_lazy("Penalties"),
    "results.recordsheet": gettext_lazy("Record sheets"),
    "results.score": gettext_lazy("Scores"),
    "results.sheetrevision": gettext_lazy("Record sheet versions"),
    "results.signature": gettext_lazy("Signatures"),
    "results.tiebreakdrawplace": gettext_lazy("Card draws"),
    "scheduling.seat": gettext_lazy("Seats"),
    "webhooks.delivery": gettext_lazy("Webhook deliveries"),
}
"""The readable page's headings, by holding."""

FIELD_LABELS = {
    "id": gettext_lazy("ID"),
    "tournament": gettext_lazy("Tournament"),
    "championship": gettext_lazy("Championship"),
    "entry": gettext_lazy("Entry"),
    "player": gettext_lazy("Player"),
    "player_a": gettext_lazy("Player"),
    "player_b": gettext_lazy("Other player"),
    "relationship": gettext_lazy("Relationship"),
    "user": gettext_lazy("Staff account"),
    "table": gettext_lazy("Table"),
    "game": gettext_lazy("Game"),
    "seat": gettext_lazy("Seat"),
    "sheet": gettext_lazy("Record sheet"),
    "draw": gettext_lazy("Card draw"),
    "webhook": gettext_lazy("Webhook"),
    "at": gettext_lazy("When"),
    "created_at": gettext_lazy("Created at"),
    "updated_at": gettext_lazy("Updated at"),
    "started_at": gettext_lazy("Started at"),
    "finished_at": gettext_lazy("Finished at"),
    "recorded_at": gettext_lazy("Recorded at"),
    "decided_at": gettext_lazy("Decided at"),
    "signed_off_at": gettext_lazy("Signed off at"),
    "created_by": gettext_lazy("Created by"),
    "recorded_by": gettext_lazy("Recorded by"),
    "decided_by": gettext_lazy("Decided by"),
    "signed_off_by": gettext_lazy("Signed off by"),
    "requested_by": gettext_lazy("Requested by"),
    "invited_by": gettext_lazy("Entered by"),
    "sent_again_by": gettext_lazy("Sent again by"),
    "placed_by": gettext_lazy("Called by"),
    "taken_by": gettext_lazy("Taken by"),
    "resolved_by": gettext_lazy("Resolved by"),
    "shown_to": gettext_lazy("Shown to"),
    "object_type": gettext_lazy("Kind of record"),
    "object_id": gettext_lazy("Record number"),
    "before": gettext_lazy("Before the change"),
    "after": gettext_lazy("After the change"),
    "reason": gettext_lazy("Reason"),
    "incident": gettext_lazy("Incident"),
    "warning": gettext_lazy("Warning"),
    "disqualification": gettext_lazy("Disqualification"),
    "request_key": gettext_lazy("Request key"),
    "mu": gettext_lazy("Skill"),
    "sigma": gettext_lazy("Uncertainty"),
    "ordinal": gettext_lazy("Rating"),
    "games": gettext_lazy("Games"),
    "mu_before": gettext_lazy("Skill before"),
    "sigma_before": gettext_lazy("Uncertainty before"),
    "games_before": gettext_lazy("Games before"),
    "place": gettext_lazy("Place"),
    "endpoint": gettext_lazy("Notification address"),
    "last_error": gettext_lazy("Last error"),
    "failures": gettext_lazy("Failed attempts"),
    "language": gettext_lazy("Language"),
    "uid": gettext_lazy("Delivery ID"),
    "body": gettext_lazy("Content sent"),
}
"""The readable page's labels of the fields whose models give none: Django's own would be the field's name, in
English on every page."""


@dataclass(frozen=True)
class Section:
    """One model's rows about the player: each row as (field's label, value) pairs, in the model's field order."""

    holding: Holding
    rows: list[dict]

    @property
    def title(self) -> str:
        """The readable page's heading for these rows (the model's own name for a holding not named here)."""
        return str(TITLES.get(self.holding.label, self.holding.model._meta.verbose_name_plural))

    @property
    def readable(self) -> list[list[tuple[str, object]]]:
        """Each row as (the field's label, its value as a person reads it) pairs, for the readable page: a choice by
        its label, yes or no, a related row by its name (one query per related model)."""
        fields = _fields(self.holding)
        keys = [f.attname if f.is_relation else f.name for f in fields]
        shown = {key: _shown(field, [row[key] for row in self.rows]) for field, key in zip(fields, keys)}
        return [[(label(field), shown[key](row[key])) for field, key in zip(fields, keys)] for row in self.rows]


def label(field: models.Field) -> str:
    """The field's label in the reader's language: the model's own, else FIELD_LABELS' (a name Django made up is
    plain English text, not a translation)."""
    if isinstance(field.verbose_name, Promise):
        return str(field.verbose_name)
    return str(FIELD_LABELS.get(field.name, field.verbose_name))


def _shown(field: models.Field, values: list):
    """How one field's stored values read."""
    related = field.related_model
    if field.is_relation and isinstance(related, type) and field.concrete:
        target = field.target_field.name  # type: ignore[attr-defined]  # a foreign key's (its to_field, or the pk)
        named = related._default_manager.in_bulk({v for v in values if v is not None}, field_name=target)
        return lambda value: str(named[value]) if value in named else value
    if field.choices:
        labels = {key: str(label) for key, label in field.flatchoices}
        return lambda value: labels.get(value, value)
    if isinstance(field, models.BooleanField):
        return lambda value: _("yes") if value else _("no")
    return lambda value: value


def _fields(holding: Holding) -> list[models.Field]:
    return [f for f in holding.model._meta.concrete_fields if f.name not in holding.hidden]


def _row(obj: models.Model, fields: list[models.Field]) -> dict:
    """The stored values, relations by id (the JSON names each related row by its model and id)."""
    return {f.attname if f.is_relation else f.name: f.value_from_object(obj) for f in fields}


def sections(player: Player) -> list[Section]:
    """Every holding with its rows about the player; holdings with none are left out."""
    found = []
    for holding in holdings():
        fields = _fields(holding)
        rows = [_row(obj, fields) for obj in holding.of(player)]
        if rows:
            found.append(Section(holding, rows))
    return found


def player_copy(player: Player) -> dict:
    """The copy as plain data: by model label, why it is kept and its rows."""
    return {"format": FORMAT, "player": player.pk, "exported_at": timezone.now(),
            "data": {s.holding.label: {"kept_for": s.holding.why, "rows": s.rows} for s in sections(player)}}


def player_copy_json(player: Player) -> str:
    return json.dumps(player_copy(player), cls=DjangoJSONEncoder, ensure_ascii=False, indent=1)
