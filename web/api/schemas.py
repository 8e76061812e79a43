"""API v1's answers as typed schemas: each answer is checked against its schema as it leaves, and the OpenAPI
document (`/api/v1/openapi.json`) is generated from them. No schema has a field for personal data (email, date of
birth, the private link): only what the public pages show."""
from datetime import date, datetime, time
from typing import Any

from ninja import Field, Schema
from pydantic import create_model

from engines.metrics import DRAW, METRICS

from .http import FieldProblem
from .http import Page as Page  # the list answers' page, used as schemas.Page


class TournamentOut(Schema):
    """The objects of `/api/tournaments/`, unchanged."""
    slug: str
    name: str
    kind: str = Field(description="qualifier, finals, world or club.")
    date: date | None
    status: str = Field(description="draft, registration, running or finished.")
    ruleset: str
    city: str
    championship: str | None = Field(description="The championship's name.")


class StageOut(Schema):
    order: int
    kind: str = Field(description="preliminary, semifinal, final, …")
    name: str
    games: int
    seating: str = Field(description="scheduled (the seating engine) or seeded (by rank).")
    boards_per_table: bool = Field(description="Each table plays its own board.")


class TournamentDetail(TournamentOut):
    championship_slug: str | None
    venue: str
    official_start: time | None = Field(description="Local time on `date`; lateness is counted from it.")
    players: int = Field(description="Entries.")
    stages: list[StageOut]


class Finisher(Schema):
    rank: int
    player: str
    player_id: int
    country: str | None


class PlayerRef(Schema):
    player: str
    player_id: int


class QualifierOut(Schema):
    tournament: str = Field(description="The qualifier's slug.")
    done: bool
    qualified: list[PlayerRef] = Field(description="Players it sent to the finals, by rank in it.")


class FinalsOut(Schema):
    tournament: str = Field(description="The finals' (or world or club event's) slug.")
    podium: list[Finisher] = Field(description="The first three once it is over (ties share a place).")


class ChampionshipOut(Schema):
    slug: str
    name: str
    scope: str = Field(description="country, world or club.")
    country: str | None = Field(description="ISO 3166 code.")
    year: int


class ChampionshipDetail(ChampionshipOut):
    qualifiers: list[QualifierOut]
    finals: list[FinalsOut]
    champion: Finisher | None
    tournaments: str = Field(description="Its tournaments, a paged list: the address of /tournaments/?championship=.")


class FinalResult(Schema):
    game: int
    place: int
    vp: int
    winner: bool


_standing_fields: dict[str, Any] = {
    "rank": (int, ...), "player": (str, ...), "entry": (int, ...), "player_id": (int, ...),
    "country": (str | None, ...), "status": (str, ...),
    "namesake": (int | None, Field(description="For a name another entry shares: its number.")),
    "tied": (bool, ...), "disqualified": (bool, ...),
    "final": (FinalResult | None, Field(description="A finalist's result at the signed-off final table.")),
    "vp_deducted": (int, Field(0, description="VP taken off total_vp by penalties (a late arrival, a VP deduction); "
                                              "the player's page lists each.")),
    DRAW: (int | None, Field(None, description="Place in a recorded tiebreak draw.")),
    **{key: (int | float | None, Field(None, description=str(metric.label))) for key, metric in METRICS.items()},
}
StandingRow = create_model("StandingRow", __base__=Schema, **_standing_fields)
"""One row of the standings: the objects of `rank --json` and `/api/tournaments/<slug>/standings/`, every metric
registered in engines.metrics included."""


class SeatOut(Schema):
    position: int
    player: str
    entry: int
    seed: int | None = Field(None, description="On tables seated by rank where the players choose chair, colour and "
                             "play order in seed order (the world rules): 1 chooses first.")
    vp: int | None = Field(None, description="Once the sheet is signed off.")
    winner: bool | None = Field(None, description="Once the sheet is signed off.")


class TableOut(Schema):
    number: int
    status: str
    seats: list[SeatOut]
    board: str | None = Field(None, description="The table's own board, where each table has one.")


class Seating(Schema):
    """The object of `/api/tournaments/<slug>/games/<n>/seating/`, its tables one page at a time."""
    game: int
    stage: str
    status: str
    board: str | None = Field(None, description="Once published; null where each table has its own board.")
    count: int = Field(description="Tables of the whole game.")
    page: int
    pages: int
    page_size: int
    next: str | None
    previous: str | None
    tables: list[TableOut]


class GameOut(Schema):
    number: int
    stage: str
    status: str = Field(description="published or finished.")
    board: str | None
    tables: int
    signed_off: int = Field(description="Tables whose sheet is signed off.")
    seating: str = Field(description="The address of its seating.")


class OpponentOut(Schema):
    player: str
    player_id: int
    namesake: int | None = Field(None, description="For a name another entry shares: its number.")


class PlayerGameOut(Schema):
    game: int
    table: int
    position: int
    opponents: list[OpponentOut]
    signed_off: bool
    vp: int | None
    winner: bool
    place: int | None
    share: float | None = Field(description="The VP share of the table, 0–1.")
    rank_after: int | None = Field(description="The player's rank after this game.")


class EntryOut(Schema):
    player_id: int
    player: str
    country: str | None
    status: str


class DeductionOut(Schema):
    vp: int = Field(description="VP taken off the player's total VP.")
    kind: str = Field(description='The penalty: "lateness" or "vp_deduction".')
    deduction: str = Field(description="Which of the ruleset's VP deductions it is (\"arguing\", …); empty for a "
                                       "late arrival or a deduction recorded before the rules named them.")
    reason: str = Field(description="What it was for, in words (the deduction's name, else the penalty's).")
    game: int | None = Field(description="The game it was given in, if one.")


class PlayerOut(EntryOut):
    tournament: str
    qualification: str = Field(description='"sent", "advancing", "qualified", "waiting" or "".')
    standing: StandingRow | None  # type: ignore[valid-type]
    deductions: list[DeductionOut] = Field(description="The VP deductions counted in the standing's vp_deducted.")
    games: list[PlayerGameOut] = Field(description="Every game played or published, at most the tournament's.")


class AnnouncementOut(Schema):
    id: int
    text: str
    created: datetime


class HexOut(Schema):
    q: int
    r: int
    resource: str
    number: int | None


class HarborOut(Schema):
    q: int
    r: int
    side: int
    kind: str


class BoardOut(Schema):
    """The shape of `manage.py board --json`."""
    code: str
    hexes: list[HexOut]
    harbors: list[HarborOut]


class Index(Schema):
    tournaments: str
    championships: str
    openapi: str
    docs: str


class Problem(Schema):
    """One problem of a list of players that cannot be imported."""
    line: int | None = Field(description="The line of the list (1 is the header), or null for the whole list.")
    column: str | None
    message: str


class Error(Schema):
    """API v1's one shape of a refusal, whatever its status (401, 403, 404, 405, 422): `detail` says why in a
    sentence, or, for a request whose path, query or body is not valid for the operation, lists its problems as
    pydantic words them."""
    detail: str | list[FieldProblem] = Field(description="Why, in a sentence; or the request's problems, each "
                                                         "with where it is (path, query or body) and why.")
    problems: list[Problem] = Field([], description="Only for a list of players that cannot be imported: the "
                                                    "problems of its lines.")


TournamentPage = Page[TournamentOut]
ChampionshipPage = Page[ChampionshipOut]
StandingsPage = Page[StandingRow]  # type: ignore[valid-type]
GamePage = Page[GameOut]
EntryPage = Page[EntryOut]
AnnouncementPage = Page[AnnouncementOut]
