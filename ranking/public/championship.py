"""A championship's public page: its qualifiers, finalists, waiting lists and champion."""

from collections import defaultdict
from dataclasses import dataclass, field

from championships.models import ACTIVE_STATUSES, Championship, Entry, Stage, Tournament
from ranking.selectors import podium, tournament_done
from ranking.standings import (
    tournament_standings,
)
from scheduling.models import Game

WAITING_LIST = 4
"""Players shown after a qualifier's last qualified player: who would take a place that is given back."""



@dataclass(frozen=True)
class QualifierBlock:
    tournament: Tournament
    qualified: list[Entry]
    """Their finals entries, by rank in the qualifier."""
    waiting: list[dict]
    """Standing rows of the next eligible players, best first."""
    done: bool
    provisional: list[dict] = field(default_factory=list)
    """A finished qualifier whose players are not sent yet: the standing rows in the qualifying places."""


@dataclass(frozen=True)
class FinalsBlock:
    tournament: Tournament
    """The finals, or a world or club event of the championship."""
    podium: list[dict]


@dataclass(frozen=True)
class ChampionshipPage:
    championship: Championship
    qualifiers: list[QualifierBlock]
    finals: list[FinalsBlock]
    champion: dict | None
    others: list[Tournament] = field(default_factory=list)


def championship_page(championship: Championship) -> ChampionshipPage:
    tournaments = list(championship.tournaments.all())
    stages: dict[int, list[Stage]] = defaultdict(list)
    for stage in Stage.objects.filter(tournament__championship=championship):
        stages[stage.tournament_id].append(stage)
    games: dict[int, list[Game]] = defaultdict(list)
    for game in Game.objects.filter(tournament__championship=championship).only("tournament_id", "stage_id",
                                                                                  "status", "number"):
        games[game.tournament_id].append(game)
    finalists = list(Entry.objects.filter(tournament__championship=championship, source_tournament__isnull=False)
                     .select_related("player", "source_tournament").order_by("source_rank"))
    qualified_anywhere = {e.player_id for e in finalists}
    blocks = []
    for t in tournaments:
        if t.kind != Tournament.Kind.QUALIFIER:
            continue
        done = tournament_done(stages[t.pk], games[t.pk]) or t.status == Tournament.Status.FINISHED
        sent = [e for e in finalists if e.source_tournament_id == t.pk]
        waiting, provisional = [], []
        if sent or done:
            eligible = [r for r in tournament_standings(t) if r["status"] in ACTIVE_STATUSES
                        and not r["disqualified"] and r["player_id"] not in qualified_anywhere]
            if not sent:  # the organizer has not sent them yet: the top places as the standings stand
                provisional, eligible = eligible[:t.advance_count], eligible[t.advance_count:]
            waiting = eligible[:WAITING_LIST]
        blocks.append(QualifierBlock(t, sent, waiting, done, provisional))
    finals = [FinalsBlock(t, podium(t, tournament_done(stages[t.pk], games[t.pk])))
              for t in tournaments if t.kind != Tournament.Kind.QUALIFIER]
    champion = next(({**f.podium[0], "tournament": f.tournament} for f in finals
                     if f.tournament.kind in (Tournament.Kind.FINALS, Tournament.Kind.WORLD) and f.podium), None)
    return ChampionshipPage(championship, blocks, finals, champion)
