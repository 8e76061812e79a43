"""Re-linking the ids that audit entries and sheet revisions carry inside their JSON.

A restored row gets a new id, so an id written into a JSON value (a sheet snapshot's seats and
entries, a play order, an admin edit's field values) is replaced by the new id of the same row;
an id of a row that is not in the file (deleted since, or in another tournament) becomes null, so
it never names an unrelated row of the new database.
"""
from collections.abc import Callable

from django.db import models

from audit.actions import Action, Kind

from .format import model_name

NewId = Callable[[str, int], int | None]
"""(model name, id in the file) → id in the database, or None when the row is not there."""

ENTRY_KEYS = ("entry", "other_entry")
"""Keys that hold an entry id in the services' audit data (penalties, signatures, rulings)."""


def sheet_data(data, new_id: NewId):
    """A sheet snapshot (results.sheets.snapshot): each score names its seat and entry by id, a player banker too."""
    if not isinstance(data, dict) or not isinstance(data.get("scores"), list):
        return data
    data = {**data, "scores": [_score(score, new_id) for score in data["scores"]]}
    if isinstance(data.get("banker"), dict):
        data["banker"] = _score(data["banker"], new_id)
    return data


def audit_data(action: str, model: type[models.Model] | None, data, new_id: NewId):
    """The before or after of an audit entry; `model` is the class of the entry's object, when known."""
    if not isinstance(data, dict):
        return data
    if action.startswith(f"{Kind.ADMIN}."):
        return _admin_fields(model, data, new_id) if model is not None else data
    data = sheet_data(data, new_id)
    data = {**data, **{key: new_id("entry", data[key]) for key in ENTRY_KEYS if _is_id(data.get(key))}}
    if action == Action.SEATING_PLAY_ORDER and isinstance(data.get("order"), list):
        data["order"] = [new_id("entry", pk) if _is_id(pk) else pk for pk in data["order"]]
    return data


def _score(score, new_id: NewId):
    if not isinstance(score, dict):
        return score
    changed = {key: new_id(key, score[key]) for key in ("seat", "entry") if _is_id(score.get(key))}
    return {**score, **changed}


def _admin_fields(model: type[models.Model], data: dict, new_id: NewId) -> dict:
    """An admin edit records the row's own fields by attname (`id`, `player_id`, …)."""
    data = dict(data)
    for field in model._meta.concrete_fields:
        if not _is_id(data.get(field.attname)):
            continue
        if field.primary_key:
            data[field.attname] = new_id(model_name(model), data[field.attname])
        elif field.is_relation:
            data[field.attname] = new_id(model_name(field.related_model), data[field.attname])
    return data


def _is_id(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
