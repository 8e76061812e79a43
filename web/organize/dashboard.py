"""Reads for the organizer's console: their championships and tournaments, each with what needs doing next.

`dashboard` and `next_steps` read every tournament at once in a fixed number of queries (stages,
games with their tables, entries, referees, qualifiers sent), however many tournaments there are.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

from django.db.models import Count, Q, QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from championships.models import ACTIVE_STATUSES, Championship, Entry, StaffRole, Stage, Tournament
from championships.permissions import officiated_tournaments
from results.models import RecordSheet
from scheduling.models import Game

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


class _TableCounts(TypedDict):
    table_count: int
    signed_off_count: int


@dataclass(frozen=True)
class Step:
    text: str
    url: str = ""
    done: bool = False


@dataclass
class TournamentCard:
    tournament: Tournament
    steps: list[Step] = field(default_factory=list)


@dataclass
class ChampionshipCard:
    championship: Championship | None
    tournaments: list[TournamentCard] = field(default_factory=list)
    organizes: bool = False
    """The user organizes the whole championship (may invite its organizers)."""


def _organized_championships(user: Any) -> QuerySet[Championship]:
    if user.is_superuser:
        return Championship.objects.all()
    return Championship.objects.filter(staff__user=user, staff__role=StaffRole.Role.ORGANIZER)


def dashboard(user: Any) -> list[ChampionshipCard]:
    """The user's championships (newest first), each with the tournaments they organize and their next steps."""
    tournaments = list(officiated_tournaments(user, StaffRole.Role.ORGANIZER).select_related("championship"))
    organized = set(_organized_championships(user).values_list("pk", flat=True))
    steps = next_steps(tournaments)
    cards: dict[int | None, ChampionshipCard] = {}
    for championship in (Championship.objects.filter(Q(pk__in=organized) | Q(tournaments__in=tournaments))
                         .distinct().order_by("-year", "name")):
        cards[championship.pk] = ChampionshipCard(championship, organizes=championship.pk in organized)
    for tournament in tournaments:
        card = cards.setdefault(tournament.championship_id, ChampionshipCard(None))
        card.tournaments.append(TournamentCard(tournament, steps[tournament.pk]))
    return list(cards.values())


def next_steps(tournaments: list[Tournament]) -> dict[int, list[Step]]:
    """What each tournament needs next, most urgent first (one or a few steps), by tournament id."""
    ids = [t.pk for t in tournaments]
    stages = defaultdict(list)
    for stage in Stage.objects.filter(tournament__in=ids).order_by("order"):
        stages[stage.tournament_id].append(stage)
    games: defaultdict[int, list[WithAnnotations[Game, _TableCounts]]] = defaultdict(list)
    signed_off = Q(tables__sheet__status=RecordSheet.Status.SIGNED_OFF)
    for game in (Game.objects.filter(tournament__in=ids).order_by("number")
                 .annotate(table_count=Count("tables", distinct=True),
                           signed_off_count=Count("tables", filter=signed_off, distinct=True))):
        games[game.tournament_id].append(game)
    active = Counter(dict(Entry.objects.filter(tournament__in=ids, status__in=ACTIVE_STATUSES)
                          .values("tournament").annotate(n=Count("pk")).values_list("tournament", "n")))
    refereed = set(StaffRole.objects.filter(tournament__in=ids, role=StaffRole.Role.REFEREE)
                   .values_list("tournament_id", flat=True))
    sent = set(Entry.objects.filter(source_tournament__in=ids).values_list("source_tournament_id", flat=True))
    return {t.pk: _steps(t, stages[t.pk], games[t.pk], active[t.pk], t.pk in refereed, t.pk in sent)
            for t in tournaments}


def _steps(tournament: Tournament, stages: list[Stage], games: list[WithAnnotations[Game, _TableCounts]],
           players: int, has_referee: bool, qualifiers_sent: bool) -> list[Step]:
    slug = tournament.slug
    console = reverse("organize-tournament", args=[slug])
    steps: list[Step] = []
    finished = [g for g in games if g.status == Game.Status.FINISHED]
    planned_total = sum(s.games for s in stages)
    all_played = planned_total > 0 and len(finished) >= planned_total and len(finished) == len(games)
    if tournament.status == Tournament.Status.FINISHED or all_played:
        if tournament.kind == Tournament.Kind.QUALIFIER and tournament.advance_count and not qualifiers_sent:
            steps.append(Step(ngettext("Send the top %(n)d player to the finals", "Send the top %(n)d players to the "
                                       "finals", tournament.advance_count) % {"n": tournament.advance_count},
                              reverse("qualification", args=[slug])))
        elif tournament.crowns_champion:
            steps.append(Step(_("The champion is known: see the podium"), console + "#podium", done=True))
        if tournament.status != Tournament.Status.FINISHED:
            steps.append(Step(_("Every game is signed off: close the tournament"), console + "#status"))
        return steps or [Step(_("Finished: nothing left to do"), done=True)]
    if not players:
        steps.append(Step(_("Add players"), reverse("organize-entries", args=[slug])))
    if not has_referee:
        steps.append(Step(_("Appoint a referee"), reverse("organize-staff", args=[slug])))
    missing = [(g.number, g.table_count - g.signed_off_count) for g in games
               if g.status == Game.Status.PUBLISHED and g.table_count > g.signed_off_count]
    for number, n in missing:
        steps.append(Step(ngettext("%(n)d table missing results in game %(game)d",
                                   "%(n)d tables missing results in game %(game)d", n) % {"n": n, "game": number},
                          reverse("referee-desk", args=[slug]) + f"?game={number}"))
    by_stage = defaultdict(list)
    for game in games:
        by_stage[game.stage_id].append(game)
    previous_done = True
    for stage in stages:
        own = by_stage[stage.pk]
        url = reverse("stage-seating", args=[slug, stage.pk])
        if len(own) < stage.games and not any(g.status != Game.Status.FINISHED for g in own):
            if stage.seating == Stage.Seating.SEEDED:
                if previous_done:
                    steps.append(Step(_("Seat %(stage)s by rank") % {"stage": stage.name}, url))
            elif players:
                steps.append(Step(_("Generate the seating for %(stage)s") % {"stage": stage.name}, url))
            break
        planned = next((g for g in own if g.status == Game.Status.PLANNED), None)
        if planned is not None:
            if not missing:
                steps.append(Step(_("Publish game %(n)d") % {"n": planned.number}, url))
            break
        previous_done = all(g.status == Game.Status.FINISHED for g in own) and len(own) >= stage.games
        if not previous_done:
            break
    return steps or [Step(_("Waiting for results"), done=True)]
