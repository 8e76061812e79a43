"""Countries are created on first use from the ISO 3166 list, so no fixture has to be kept."""
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext as _
from django_countries import countries

from .models import Country


def country_for_code(code: str) -> Country:
    code = code.strip().upper()
    if code not in countries:
        raise ValidationError({"country": _("%(code)s is not an ISO 3166 country code.") % {"code": code}})
    with translation.override("en"):
        name = countries.name(code)
    country, _created = Country.objects.get_or_create(code=code, defaults={"name": name})
    return country
