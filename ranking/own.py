"""What a player's private link shows (`/me/<token>/`): for every tournament they are in or registered for, where
to sit now, the result to confirm, their games, rank and penalties, and what comes next. The player's own data
only: other players appear by name, as on the public pages. A fixed handful of queries per tournament.
"""
from dataclasses import dataclass, field

from django.db.models import Prefetch, Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from championships.models import Entry, Player, Registration, Tournament
from championships.places import LIVE, waiting_position
from ranking.public.player import PlayerPage, player_page
from results.deductions import deduction_name
from results.models import Objection, Penalty, RecordSheet, Score, Signature
from scheduling.calendar import official_start
from scheduling.models import Game, Seat


@dataclass(frozen=True)
class SeatNow:
    """Where the player sits in the game being played (or about to be)."""

    game: int
    table: int
    position: int
    """The play order: 1 starts."""
    board: str
    """The board's code when the table or the game has one (shown as the board's picture)."""
    stage: str
    seed: int | None
    table_mates: list[tuple[int, str]]
    """The others at the table: (play order, name)."""
    played: Game
    """The game itself, whose map-study countdown the page shows as the tablet and the projector do."""
    turn_seconds: int | None
    """The timed turns a referee imposed on the table (seconds a turn); None while turns are untimed."""
    placement_seconds: int | None
    table_id: int
    """Where the player's calls for a referee go (web/players/calls.py)."""


@dataclass(frozen=True)
class ResultToConfirm:
    """The entered result of the player's table, while players sign it."""

    sheet_id: int
    version: int
    game: int
    table: int
    scores: list[Score]
    """In play order, with each player's name."""
    signed: Signature | None
    objected: Objection | None
    everyone_signed: bool


@dataclass
class OwnTournament:
    tournament: Tournament
    entry: Entry | None
    registration: Registration | None
    waiting_position: int | None = None
    seat_now: SeatNow | None = None
    to_confirm: ResultToConfirm | None = None
    page: PlayerPage | None = None
    penalties: list[Penalty] = field(default_factory=list)
    next_steps: list[str] = field(default_factory=list)
    can_cancel: bool = False

    @property
    def finished(self) -> bool:
        return self.tournament.status == Tournament.Status.FINISHED


def own_page(player: Player) -> list[OwnTournament]:
    """Every tournament the player is entered in or has a live registration for: the one being played first, then
    the coming ones by date, then the finished ones, latest first."""
    entries = {e.tournament_id: e for e in Entry.objects.filter(player=player).select_related(
        "tournament__championship", "player__country", "source_tournament")}
    registrations = {r.tournament_id: r for r in Registration.objects.filter(player=player).filter(
        Q(status__in=LIVE) | Q(entry__isnull=False)).select_related("tournament__championship", "entry")
        .order_by("created_at")}
    tournaments = {pk: (entries[pk].tournament if pk in entries else registrations[pk].tournament)
                   for pk in {*entries, *registrations}}
    rows = [_own(tournaments[pk], entries.get(pk), registrations.get(pk)) for pk in tournaments]
    far = timezone.localdate().replace(year=9999)

    def order(row: OwnTournament):
        day = row.tournament.date or far
        if row.finished:
            return (2, -day.toordinal(), row.tournament.pk)
        return (0 if row.tournament.status == Tournament.Status.RUNNING else 1, day.toordinal(), row.tournament.pk)
    return sorted(rows, key=order)


def own_tournament(player: Player, tournament: Tournament) -> OwnTournament | None:
    """The one tournament of `own_page` (its live part, refreshed on its own); None if the player is not in it."""
    entry = (Entry.objects.filter(player=player, tournament=tournament)
             .select_related("tournament__championship", "player__country", "source_tournament").first())
    registration = (Registration.objects.filter(player=player, tournament=tournament)
                    .filter(Q(status__in=LIVE) | Q(entry__isnull=False)).select_related("entry")
                    .order_by("created_at").last())  # as `own_page`: the latest
    if entry is None and registration is None:
        return None
    return _own(entry.tournament if entry else tournament, entry, registration)


def _own(tournament: Tournament, entry: Entry | None, registration: Registration | None) -> OwnTournament:
    row = OwnTournament(tournament, entry, registration)
    if registration is not None:
        row.waiting_position = waiting_position(registration)
        row.can_cancel = _may_cancel(tournament, entry, registration)
    if entry is not None:
        row.page = page = player_page(tournament, entry.player_id, entry)
        row.penalties = list(Penalty.objects.filter(entry=entry, withdrawn_at__isnull=True)
                             .select_related("game").order_by("recorded_at"))
        for penalty in row.penalties:
            penalty.deduction_name = deduction_name(tournament.ruleset, penalty.deduction)
        seat = next((s for s in page.seats if s.game.status == Game.Status.PUBLISHED), None) if page else None
        if page is not None and seat is not None:
            mates = [(s.position, s.entry.player.name) for s in page.table_seats.get(seat.table_id, [])
                     if s.pk != seat.pk]
            seat.game.tournament = tournament  # the clock reads its rules: no query
            row.seat_now = SeatNow(seat.game.number, seat.table.number, seat.position,
                                   seat.table.board_code or seat.game.board_code, seat.game.stage.name, seat.seed,
                                   mates, seat.game, seat.table.turn_seconds, seat.table.placement_seconds,
                                   seat.table_id)
            row.to_confirm = _to_confirm(seat)
    row.next_steps = _next_steps(row)
    return row


def _may_cancel(tournament: Tournament, entry: Entry | None, registration: Registration) -> bool:
    if registration.status in (Registration.Status.PENDING, Registration.Status.WAITING):
        return True
    return (registration.status == Registration.Status.ENTERED and entry is not None
            and entry.status in (Entry.Status.REGISTERED, Entry.Status.CHECKED_IN)
            and not Game.objects.filter(tournament=tournament).exists())


def _to_confirm(seat: Seat) -> ResultToConfirm | None:
    sheet = getattr(seat.table, "sheet", None)
    if sheet is None or sheet.status not in (RecordSheet.Status.SIGNING, RecordSheet.Status.SIGNED):
        return None
    sheet = (RecordSheet.objects.filter(pk=sheet.pk)
             .prefetch_related(Prefetch("scores", Score.objects.select_related("seat__entry__player")
                                        .order_by("seat__position"))).get())
    signed = Signature.objects.filter(sheet=sheet, entry_id=seat.entry_id).first()
    objected = Objection.objects.filter(sheet=sheet, entry_id=seat.entry_id, sheet_version=sheet.version).first()
    return ResultToConfirm(sheet.pk, sheet.version, seat.game.number, seat.table.number, list(sheet.scores.all()),
                           signed, objected, sheet.status == RecordSheet.Status.SIGNED)


def _next_steps(row: OwnTournament) -> list[str]:
    """What comes next for the player, in words."""
    tournament, entry, registration = row.tournament, row.entry, row.registration
    values = {"tournament": tournament.name}
    if entry is None:
        if registration is not None and registration.status == Registration.Status.WAITING:
            return [_("You are number %(n)d on the waiting list: when a place frees, it is yours and we tell you by "
                      "email.") % {"n": row.waiting_position or 1}]
        if registration is not None and registration.status == Registration.Status.PENDING:
            return [_("The organizers approve each registration: we tell you by email when they have.")]
        return []
    if row.finished:
        return []
    if entry.status in (Entry.Status.WITHDRAWN, Entry.Status.NO_SHOW, Entry.Status.NOT_ADMITTED,
                        Entry.Status.DISQUALIFIED):
        return [_("You take no further part in %(tournament)s.") % values]
    steps = []
    start = official_start(tournament)
    if entry.status == Entry.Status.REGISTERED and start is not None and timezone.now() < start:
        local = timezone.localtime(start)
        steps.append(_("Be there before the official start, at %(time)s on %(date)s, and check in at the desk or with "
                       "the QR code it shows.") % {"time": date_format(local, "TIME_FORMAT"),
                                                     "date": date_format(local, "DATE_FORMAT")})
    elif entry.status == Entry.Status.REGISTERED:
        steps.append(_("Check in at the desk, or with the QR code it shows."))
    if row.to_confirm is not None and row.to_confirm.signed is None and not row.to_confirm.everyone_signed:
        steps.append(_("You said the result of your table is wrong: the referee decides, and this page shows the "
                       "result they sign off.") if row.to_confirm.objected is not None
                     else _("Check your table's result below and confirm it, or say what is wrong."))
    elif row.seat_now is not None:
        steps.append(_("Game %(game)d: table %(table)d, you play in position %(position)d.") % {
            "game": row.seat_now.game, "table": row.seat_now.table, "position": row.seat_now.position})
    elif entry.status == Entry.Status.CHECKED_IN:
        steps.append(_("The seating of the next game is not published yet: this page shows your table as soon as it "
                       "is."))
    return steps
