"""Every installed model with a player's personal data is in the registry (core/personal_data.py), so a player's
copy and their erasure cannot forget a new one."""
from django.apps import apps
from django.db import models

from core.personal_data import EXEMPT, REGISTRY

PERSONAL_NAMES = {"email", "date_of_birth", "city", "friends", "endpoint", "p256dh", "auth", "digest", "secret",
                  "token", "confirm_digest", "to", "body"}
"""Field names that hold a personal detail, a token or a link (besides every EmailField), or a payload that may
name a player (as every JSONField may)."""
HUBS = {"championships.player", "championships.entry", "scheduling.seat", "results.penalty",
        "championships.registration", "championships.relationship"}
"""Models each row of which is one player's: a model that refers to one of them holds rows about a player."""


def _personal_fields(model) -> list[str]:
    found = []
    for f in model._meta.get_fields():
        if f.auto_created and not f.concrete:
            continue  # reverse relations: the other model's fields
        personal = isinstance(f, models.EmailField | models.JSONField) or f.name in PERSONAL_NAMES
        if personal or (f.is_relation and f.concrete and f.related_model._meta.label_lower in HUBS):
            found.append(f.name)
    return found


def test_every_model_with_personal_data_is_registered():
    missing = {model._meta.label_lower: fields for model in apps.get_models()
               if (fields := _personal_fields(model))
               and model._meta.label_lower not in REGISTRY and model._meta.label_lower not in EXEMPT}
    assert not missing, f"models with personal fields not in core.personal_data's registry: {missing}"


def test_the_registry_names_real_fields_and_lookups():
    for holding in REGISTRY.values():
        names = {f.name for f in holding.model._meta.concrete_fields}
        assert set(holding.erase) <= names, holding.label
        if holding.about and holding.about != "pk":
            holding.model._default_manager.filter(**{holding.about: 0})  # a wrong lookup raises FieldError


def test_a_model_is_either_registered_or_exempt_not_both():
    assert not set(REGISTRY) & set(EXEMPT)
    assert all(why.strip() for why in EXEMPT.values())
