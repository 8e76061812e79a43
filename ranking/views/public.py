"""Public, read-only pages: live standings (with a CSV export of the same table)."""
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from championships.models import Tournament
from core.csv_export import csv_response

from ..columns import standings_columns
from ..qualification import advancing_entries
from ..standings import tournament_standings


def standings(request, slug: str):
    tournament = get_object_or_404(Tournament.objects.select_related("championship"), slug=slug)
    rows = tournament_standings(tournament)
    columns = standings_columns(tournament.ruleset)
    context = {
        "tournament": tournament, "columns": columns, "advancing": advancing_entries(tournament, rows),
        "rows": [(row, [c.show(row[c.key]) for c in columns]) for row in rows],
    }
    template = "ranking/standings_table.html" if request.htmx else "ranking/standings.html"
    return render(request, template, context)


def standings_csv(request, slug: str):
    tournament = get_object_or_404(Tournament, slug=slug)
    columns = standings_columns(tournament.ruleset)
    header = [_("rank"), _("player"), _("country"), *[c.key for c in columns], _("tied")]
    rows = ([row["rank"], row["player"], row["country"] or "", *[c.plain(row[c.key]) for c in columns],
             _("yes") if row["tied"] else ""] for row in tournament_standings(tournament))
    return csv_response(f"{tournament.slug}-standings.csv", header, rows)
