"""`/favicon.ico`: browsers ask for it whatever a page names, on every first visit."""
from django.http import HttpResponseRedirect
from django.templatetags.static import static
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

ICON = "icons/favicon.svg"
"""The site's icon, also named by every page (`<link rel="icon">` in base.html)."""


@require_safe
@cache_control(max_age=86400, public=True)
def favicon(request):
    """A redirect to the static icon: no template, no session, no database."""
    return HttpResponseRedirect(static(ICON))
