"""The organizer's results download: every seat's VP, winner, place and sign-off, for a spreadsheet."""
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.utils import timezone

from championships.permissions import organized_tournament
from core.table_export import table_response
from results.selectors import ResultRow, result_rows
from web.requests import HtmxHttpRequest


def _cells(row: ResultRow) -> list[object]:
    signed = timezone.localtime(row.signed_off_at).isoformat(timespec="seconds") if row.signed_off_at else ""
    return [row.game, row.table, row.position, row.player, "" if row.vp is None else row.vp,
            "true" if row.winner else "false", row.place or "", signed]


@login_required
def results_csv(request: HtmxHttpRequest, slug: str, fmt: str = "csv") -> HttpResponse:
    tournament = organized_tournament(request.user, slug)
    return table_response(fmt, f"{tournament.slug}-results",
                        ["game", "table", "position", "player", "vp", "winner", "place", "signed_off_at"],
                        (_cells(row) for row in result_rows(tournament)))
