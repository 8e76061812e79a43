from django import template
from django.conf import settings
from django.urls import translate_url
from django.utils.translation import get_language

register = template.Library()


@register.simple_tag(takes_context=True)
def language_links(context) -> list[dict]:
    """This page in every language, each named in itself, as plain links (`/de/…`, English unprefixed): the
    language menu needs no form and no CSRF token, so an anonymous reader's page holds nothing personal and can be
    cached whole. A page rendered without a request (the public live pages, `ranking.public.pages`) names its
    `page_address`."""
    address, request = context.get("page_address"), context.get("request")
    if address is None and request is None:
        return []
    path, current = address.full_path if address is not None else request.get_full_path(), get_language()
    return [{"code": code, "name": name, "href": translate_url(path, code), "current": code == current}
            for code, name in settings.LANGUAGES]
