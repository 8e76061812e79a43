from django import template

register = template.Library()


@register.filter
def vp_field(form, score):
    """The VP field of one seat in a sheet form (templates cannot build the field name)."""
    return form.vp_field(score)
