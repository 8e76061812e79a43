"""Season rankings: an organizer's season over several of their championships, its players ranked by points.

Each finished event of the season's championships gives points by the player's final place in its standings,
from the season's table for that kind of event (a qualifier, a finals, …: the national tour's points differ by
stage); a place beyond the table, and a disqualified player, scores nothing; players who share a place score
that place's points. Players equal on points are ordered by the tiebreaks the organizer chose, in order; those
still equal share the rank. Events still running are listed, not counted, until they finish.

Only an organizer of every championship of a season sees or changes it (`may_manage`); a season takes only
championships its author organizes. Every change is audited.
"""
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils.translation import gettext_lazy as _

from audit.actions import Action
from audit.services import record_change
from championships.models import Championship, Country, StaffRole, Tournament
from ranking.standings import tournament_standings

from .models import PlayerRating, Season

POINTS_MAX = 1000
"""The most points one place may give."""
PLACES_MAX = 64
"""The most places a points table may list."""
TIEBREAKS_MAX = 3
"""How many tiebreaks an organizer may chain."""
EVENT_KINDS = [Tournament.Kind.QUALIFIER, Tournament.Kind.FINALS, Tournament.Kind.WORLD, Tournament.Kind.CLUB]
"""A points table each, in this order on the form."""


@dataclass
class SeasonRow:
    player_id: int
    name: str
    country: Country | None
    points: int = 0
    events: int = 0
    wins: int = 0
    total_vp: int = 0
    best_place: int | None = None
    places: list[int] = field(default_factory=list)
    rating: float | None = None
    results: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Tournament id → (place, points)."""
    rank: int = 0
    tied: bool = False


@dataclass(frozen=True)
class Tiebreak:
    key: str
    label: object
    value: Callable[[SeasonRow], object]
    """Higher is better."""


TIEBREAKS = {t.key: t for t in (
    Tiebreak("events", _("More events played"), lambda r: r.events),
    Tiebreak("wins", _("More games won"), lambda r: r.wins),
    Tiebreak("total_vp", _("More victory points in total"), lambda r: r.total_vp),
    Tiebreak("best_place", _("Best place in one event"), lambda r: -(r.best_place or 10 ** 6)),
    Tiebreak("countback", _("More first places, then more second places, …"),
             lambda r: [r.places.count(place) for place in range(1, PLACES_MAX + 1)]),
    Tiebreak("rating", _("Higher rating across events"), lambda r: r.rating if r.rating is not None else -10 ** 6),
)}
"""The tiebreaks an organizer chooses from (`Season.tiebreaks` keeps their keys in order)."""


def parse_points(text: str) -> list[int]:
    """"25, 18, 15" → [25, 18, 15]; commas, spaces or semicolons between the numbers. ValidationError naming the
    problem otherwise."""
    parts = [p for p in text.replace(";", ",").replace(" ", ",").split(",") if p]
    if len(parts) > PLACES_MAX:
        raise ValidationError(_("At most %(n)d places get points.") % {"n": PLACES_MAX})
    points = []
    for n, part in enumerate(parts, start=1):
        if not (part.isascii() and part.isdigit()) or int(part) > POINTS_MAX:
            raise ValidationError(_("Place %(place)d: “%(value)s” is not a number of points from 0 to %(max)d.")
                                  % {"place": n, "value": part[:20], "max": POINTS_MAX})
        points.append(int(part))
    return points


def organized_championships(user) -> QuerySet[Championship]:
    """The championships a season of this user may take: those they organize (all, for a superuser)."""
    if user.is_superuser:
        return Championship.objects.all()
    return Championship.objects.filter(Exists(StaffRole.objects.filter(
        user=user, role=StaffRole.Role.ORGANIZER, championship=OuterRef("pk"))))


def seasons_of(user) -> QuerySet[Season]:
    """The seasons the user may see and change: every championship of theirs."""
    if user.is_superuser:
        return Season.objects.all()
    others = Season.championships.through.objects.filter(season=OuterRef("pk")).exclude(
        championship__in=organized_championships(user))
    return Season.objects.filter(~Exists(others))


def may_manage(user, season: Season) -> bool:
    return user.is_authenticated and seasons_of(user).filter(pk=season.pk).exists()


def _checked(user, *, name: str, championship_ids: Iterable[int], points: dict, tiebreaks: list[str]) -> tuple:
    name = name.strip()
    errors: dict[str, Any] = {}
    if not name:
        errors["name"] = _("Give the season a name.")
    championships = list(organized_championships(user).filter(pk__in=list(championship_ids)))
    if not championships or len(championships) != len(set(championship_ids)):
        errors["championships"] = _("Choose one or more championships that you organize.")
    unknown = [k for k in tiebreaks if k not in TIEBREAKS]
    if unknown or len(set(tiebreaks)) != len(tiebreaks) or len(tiebreaks) > TIEBREAKS_MAX:
        errors["tiebreaks"] = _("Choose each tiebreak once, from the list, at most %(n)d.") % {"n": TIEBREAKS_MAX}
    bad_kinds = [k for k in points if k not in EVENT_KINDS]
    if bad_kinds or any(not isinstance(v, list) or len(v) > PLACES_MAX
                        or any(not isinstance(p, int) or not 0 <= p <= POINTS_MAX for p in v) for v in points.values()):
        errors["points"] = _("Points are whole numbers from 0 to %(max)d for at most %(n)d places.") % {
            "max": POINTS_MAX, "n": PLACES_MAX}
    if errors:
        raise ValidationError(errors)
    return name, championships


def _audited(season: Season) -> dict:
    return {"name": season.name, "championships": sorted(season.championships.values_list("slug", flat=True)),
            "points": season.points, "tiebreaks": season.tiebreaks}


@transaction.atomic
def create_season(*, user, name: str, championship_ids: Iterable[int], points: dict, tiebreaks: list[str]) -> Season:
    championship_ids = list(championship_ids)
    name, championships = _checked(user, name=name, championship_ids=championship_ids, points=points,
                                   tiebreaks=tiebreaks)
    season = Season.objects.create(name=name, points=points, tiebreaks=tiebreaks, created_by=user)
    season.championships.set(championships)
    record_change(user, None, Action.SEASON_CREATED, season, after=_audited(season))
    return season


@transaction.atomic
def change_season(season_id: int, *, user, version: int, name: str, championship_ids: Iterable[int], points: dict,
                  tiebreaks: list[str]) -> Season:
    """Refused when the season changed since the form was read (`version`) or the user may not manage it."""
    season = Season.objects.select_for_update().get(pk=season_id)
    if not may_manage(user, season):
        raise PermissionDenied("Only an organizer of every championship of this season may change it.")
    if season.version != version:
        raise ValidationError(_("Someone changed this season meanwhile: look at it again before saving."))
    championship_ids = list(championship_ids)
    name, championships = _checked(user, name=name, championship_ids=championship_ids, points=points,
                                   tiebreaks=tiebreaks)
    before = _audited(season)
    season.name, season.points, season.tiebreaks = name, points, tiebreaks
    season.version += 1
    season.save()
    season.championships.set(championships)
    after = _audited(season)
    if after != before:
        record_change(user, None, Action.SEASON_CHANGED, season, before=before, after=after)
    return season


@transaction.atomic
def delete_season(season_id: int, *, user) -> None:
    season = Season.objects.select_for_update().get(pk=season_id)
    if not may_manage(user, season):
        raise PermissionDenied("Only an organizer of every championship of this season may delete it.")
    record_change(user, None, Action.SEASON_DELETED, season, before=_audited(season))
    season.delete()


@dataclass(frozen=True)
class SeasonEvent:
    tournament: Tournament
    counted: bool
    """Finished: its places give points."""


@dataclass(frozen=True)
class SeasonStandings:
    season: Season
    rows: list[SeasonRow]
    events: list[SeasonEvent]
    tiebreaks: list[Tiebreak]

    @property
    def counted(self) -> list[Tournament]:
        return [e.tournament for e in self.events if e.counted]

    @property
    def points_tables(self) -> list[tuple[Any, list[int]]]:
        """(kind of event, in words; its points for places 1, 2, …) in the form's order."""
        return [(Tournament.Kind(kind).label, self.season.points[kind]) for kind in EVENT_KINDS
                if kind in self.season.points]


def season_standings(season: Season) -> SeasonStandings:
    """The season's players ranked by points, then the chosen tiebreaks; each player's place and points per event.
    One standings read per event (cached per results version), then a few queries."""
    events = [SeasonEvent(t, t.status == Tournament.Status.FINISHED)
              for t in Tournament.objects.filter(championship__in=season.championships.all(),
                                                 status__in=[Tournament.Status.RUNNING, Tournament.Status.FINISHED])
              .select_related("championship")]
    rows: dict[int, SeasonRow] = {}
    codes: dict[int, str | None] = {}
    for event in events:
        if not event.counted:
            continue
        table = season.points.get(event.tournament.kind, [])
        for standing in tournament_standings(event.tournament):
            row = rows.setdefault(standing["player_id"], SeasonRow(standing["player_id"], standing["player"], None))
            codes[standing["player_id"]] = standing["country"]
            place = standing["rank"]
            points = 0 if standing["disqualified"] or place > len(table) else table[place - 1]
            row.results[event.tournament.pk] = (place, points)
            row.points += points
            row.events += 1
            row.wins += standing["wins"]
            row.total_vp += standing["total_vp"]
            row.places.append(place)
            row.best_place = min(place, row.best_place or place)
    ratings = dict(PlayerRating.objects.filter(player_id__in=rows).values_list("player_id", "ordinal"))
    countries = {c.code: c for c in Country.objects.filter(code__in={c for c in codes.values() if c})}
    for row in rows.values():
        row.rating = ratings.get(row.player_id)
        row.country = countries.get(codes[row.player_id] or "")
    chosen = [TIEBREAKS[key] for key in season.tiebreaks if key in TIEBREAKS]

    def key(row: SeasonRow) -> tuple:
        return (row.points, *(t.value(row) for t in chosen))

    ordered = sorted(rows.values(), key=lambda r: (_negated(key(r)), r.name, r.player_id))
    for position, row in enumerate(ordered, start=1):
        previous = ordered[position - 2] if position > 1 else None
        row.rank = previous.rank if previous is not None and key(previous) == key(row) else position
    sharing = Counter(row.rank for row in ordered)
    for row in ordered:
        row.tied = sharing[row.rank] > 1
    return SeasonStandings(season, ordered, sorted(events, key=_event_order), chosen)


def _negated(values: tuple) -> tuple:
    """Sorts a "higher is better" key best first (lists element by element)."""
    return tuple([-x for x in v] if isinstance(v, list) else -v for v in values)


def _event_order(event: SeasonEvent) -> tuple:
    return (event.tournament.date or date.max, event.tournament.pk)
