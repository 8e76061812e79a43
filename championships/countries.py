"""Countries are created on first use from the ISO 3166 list, so no fixture has to be kept."""
from functools import lru_cache

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext as _
from django_countries import countries

from core.names import fold

from .models import Country


def country_for_code(code: str) -> Country:
    code = code.strip().upper()
    if code not in countries:
        raise ValidationError({"country": _("%(code)s is not an ISO 3166 country code.") % {"code": code}})
    with translation.override("en"):
        name = countries.name(code)
    country, _created = Country.objects.get_or_create(code=code, defaults={"name": name})
    return country


LANGUAGE_CODES = tuple(code for code, _name in settings.LANGUAGES)
"""The site's languages: a country may be written in any of them in a registration list."""
SHORT_NAMES = {"United States": "US", "UK": "GB", "Great Britain": "GB"}
"""Names people type in a form's free-text answer that ISO 3166 spells otherwise ("United States of America")."""


@lru_cache(maxsize=1)
def _codes_by_name() -> dict[str, str]:
    """Every ISO 3166 country's name in each site language (and its alpha-2 and alpha-3 codes) → alpha-2 code."""
    found: dict[str, str] = {}
    for language in LANGUAGE_CODES:
        with translation.override(language):
            for code, name in countries:
                found.setdefault(fold(str(name)), code)
    for code, _name in countries:
        found.setdefault(fold(code), code)
        found.setdefault(fold(countries.alpha3(code)), code)
    for name, code in SHORT_NAMES.items():
        found.setdefault(fold(name), code)
    return found


def country_code_for(text: str) -> str | None:
    """The alpha-2 code a person meant by a code (AE, ARE) or a name in any site language; None if unknown."""
    return _codes_by_name().get(fold(text)) if text.strip() else None


def country_choices() -> list[tuple[str, str]]:
    """Every ISO 3166 country as (code, name) in the current language, sorted by that name."""
    return [(code, str(name)) for code, name in countries]
