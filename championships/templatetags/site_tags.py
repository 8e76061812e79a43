from django import template
from django.conf import settings
from django.urls import translate_url

register = template.Library()


@register.simple_tag(takes_context=True)
def unprefixed_path(context) -> str:
    """This page's address in the default language, which `set_language` can translate to any other.

    `set_language` resolves `next` in the default language, so an /ar/… address would stay Arabic.
    """
    return translate_url(context["request"].get_full_path(), settings.LANGUAGE_CODE)
