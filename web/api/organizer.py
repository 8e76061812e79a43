"""API v1's organizer operations, for a federation's scripts: enter players, import a list of players, read the
signed-off results. Each takes an organizer's API token (`Authorization: Bearer catan_…`, made on the
championship's console page, championships/api_tokens.py) and acts as the token's owner through the same services as
the pages, so every write is checked and audited as theirs.

No token, or a revoked one, or one whose owner no longer organizes the championship: 401. A tournament of another
championship than the token's, or a write the owner may not make: 403. Both in JSON, `{"detail": …}`."""
from datetime import datetime
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Prefetch
from django.http import HttpRequest
from ninja import Field, Query, Router, Schema, Status
from ninja.errors import HttpError
from ninja.security import HttpBearer

from championships.api_tokens import active_token
from championships.list_file import MAX_BYTES, read_upload
from championships.list_file import check_records as check_list
from championships.models import ApiToken, Tournament
from championships.people import import_rows
from championships.permissions import visible_players
from championships.services import enter_players
from core.names import fold
from engines.csv_input import InputError, InputProblem
from results.models import RecordSheet
from scheduling.models import Seat, Table

from . import schemas
from .http import Body, Id, PageParams, Slug, paged

MAX_ENTRIES = 500
"""Players one request may enter: a big open event's whole list."""


class OrganizerToken(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str) -> ApiToken | None:
        return active_token(token)


router = Router(auth=OrganizerToken(), tags=["organizers (API token)"])
REFUSED: dict[int, type[Schema]] = {status: schemas.Error for status in (401, 403, 404, 422)}


def _scoped(request: HttpRequest, slug: str) -> Tournament:
    """The tournament, if it is one of the token's championship."""
    token: ApiToken = request.auth  # type: ignore[attr-defined]
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        raise HttpError(404, "No tournament with that slug.")
    if tournament.championship_id != token.championship_id:
        raise HttpError(403, "This token is for another championship.")
    return tournament


class EntriesIn(Body):
    player_ids: list[Id] = Field(min_length=1, max_length=MAX_ENTRIES,
                                  description="Players already registered whose details the token's owner may see.")


class PlayersIn(Body):
    csv: str = Field(max_length=MAX_BYTES, description="The list as the players import page takes it (CSV text: "
                                                        "name, email, date_of_birth, country, friends_or_family).")


class Entered(Schema):
    entered: list[schemas.EntryOut]


WRITES: dict[int, type[Schema]] = {200: Entered, **REFUSED}


def _entered(entries: list[Any]) -> dict[str, Any]:
    return {"entered": [{"player_id": e.player_id, "player": e.player.name, "status": e.status,
                         "country": e.player.country.code if e.player.country else None} for e in entries]}


def _refused(error: ValidationError) -> Status[dict[str, Any]]:
    return Status(422, {"detail": " ".join(error.messages)})


@router.post("/tournaments/{slug}/entries/", response=WRITES, url_name="entries", exclude_unset=True,
             summary="Enter registered players in a tournament")
def entries(request: HttpRequest, slug: Slug, body: EntriesIn) -> Any:
    """The players are entered in the order given (an error names the n-th id as "line n"); one refused refuses
    all. Players already entered stay as they are."""
    tournament = _scoped(request, slug)
    owner = request.auth.user  # type: ignore[attr-defined]
    found = visible_players(owner).select_related("country").in_bulk(body.player_ids)
    unknown = [pk for pk in body.player_ids if pk not in found]
    if unknown:
        return Status(422, {"detail": f"No player you may enter has the id {unknown[0]}."})
    try:
        players = {n: found[pk] for n, pk in enumerate(body.player_ids, 1)}
        return Status(200, _entered(enter_players(tournament, players, user=owner)))
    except PermissionDenied as error:
        raise HttpError(403, str(error)) from error
    except ValidationError as error:
        return _refused(error)


@router.post("/tournaments/{slug}/players/import/", response=WRITES, url_name="import", exclude_unset=True,
             summary="Register and enter a list of players (the players import page's CSV)")
def import_players(request: HttpRequest, slug: Slug, body: PlayersIn) -> Any:
    """A registered player (same email, or same name and date of birth) is linked, not made again; friends and
    family named must be in the same list. Any problem refuses the whole list, each named with its line. A row
    naming a player of another championship is a lookup, counted against the owner's hourly allowance (the whole
    list is refused past it) and entered with an invitation to confirm: the answer says of such a row only what the
    list said (its name and country), never the registered name."""
    tournament = _scoped(request, slug)
    try:
        lines = check_list(*read_upload("players.csv", body.csv.encode()))
    except InputError as error:
        return Status(422, {"detail": "The list cannot be read.", "problems": [_problem(p) for p in error.problems]})
    names = {fold(line.row.name) for line in lines if line.row}
    for line in lines:
        for friend in line.row.friends_or_family if line.row else ():
            if fold(friend) not in names:
                line.problems.append(InputProblem(line.line, f"{friend} is not in the list: name friends and family "
                                                             "from the same list", "friends_or_family"))
    problems = [_problem(p) for line in lines for p in line.problems]
    if problems or not lines:
        detail = "Nothing was imported: correct the list." if lines else "The list has no players."
        return Status(422, {"detail": detail, "problems": problems})
    try:
        rows = [line.row for line in lines if line.row]
        entered = import_rows(tournament, rows, user=request.auth.user)  # type: ignore[attr-defined]
        return Status(200, {"entered": [
            {"player_id": entry.player_id, "player": row.name if foreign else entry.player.name,
             "status": entry.status,
             "country": (row.country or None) if foreign else (entry.player.country.code if entry.player.country
                                                               else None)}
            for row, entry, foreign in entered]})
    except PermissionDenied as error:
        raise HttpError(403, str(error)) from error
    except ValidationError as error:
        return _refused(error)


def _problem(problem: InputProblem) -> dict[str, Any]:
    return {"line": problem.line, "column": problem.column, "message": str(problem.message)}


class ScoreOut(Schema):
    position: int
    player: str
    player_id: int
    vp: int
    winner: bool


class ResultOut(Schema):
    game: int
    table: int
    signed_off_at: datetime
    scores: list[ScoreOut]


@router.get("/tournaments/{slug}/results/", response={200: schemas.Page[ResultOut], **REFUSED}, url_name="results",
            summary="Every signed-off table's result, by game and table")
def results(request: HttpRequest, slug: Slug, paging: Query[PageParams]) -> Any:
    tables = (Table.objects.filter(game__tournament=_scoped(request, slug), sheet__status=RecordSheet.Status.SIGNED_OFF)
              .select_related("game", "sheet").order_by("game__number", "number")
              .prefetch_related(Prefetch("seats", Seat.objects.select_related("entry__player", "score")
                                         .order_by("position"))))
    return paged(request, tables, paging, lambda table: {
        "game": table.game.number, "table": table.number, "signed_off_at": table.sheet.signed_off_at,
        "scores": [{"position": s.position, "player": s.entry.player.name, "player_id": s.entry.player_id,
                    "vp": s.score.vp, "winner": s.score.winner} for s in table.seats.all()]})
