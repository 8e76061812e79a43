"""What decides a podium that a final table decided, for templates that show only the podium (the console)."""
from django import template

from ..final_table import decided_text

register = template.Library()


@register.filter
def decided_by(final: dict | None) -> str:
    """A standing row's `final` result → which places the final table decided; "" for a row without one."""
    return decided_text(final["game"]) if final else ""
