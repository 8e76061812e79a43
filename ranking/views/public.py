"""Public, read-only pages: live standings (with a CSV export of the same table)."""
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from championships.models import Tournament
from core.csv_export import csv_response

from .. import selectors
from ..columns import standings_columns
from ..standings import tournament_standings


def standings(request, slug: str):
    tournament = get_object_or_404(Tournament.objects.select_related("championship"), slug=slug)
    page = selectors.standings_page(tournament)
    context = {"tournament": tournament, "columns": page.columns, "advancing": page.advancing, "rows": page.rows}
    template = "ranking/standings_table.html" if request.htmx else "ranking/standings.html"
    return render(request, template, context)


def standings_csv(request, slug: str):
    tournament = get_object_or_404(Tournament, slug=slug)
    columns = standings_columns(tournament.ruleset)
    header = [_("rank"), _("player"), _("country"), *[c.key for c in columns], _("tied")]
    rows = ([row["rank"], row["player"], row["country"] or "", *[c.plain(row[c.key]) for c in columns],
             _("yes") if row["tied"] else ""] for row in tournament_standings(tournament))
    return csv_response(f"{tournament.slug}-standings.csv", header, rows)
