"""A finished championship tournament with everything a player leaves behind: entries, results, a penalty, ratings,
a registration, a private link, a push subscription, a record change, the activity log."""
from dataclasses import dataclass
from datetime import date

import pytest
from django.utils import timezone

from championships import links
from championships.models import Entry, Player, PushSubscription, Registration, Tournament
from championships.services import change_player
from ratings.services import recompute_all
from results.penalties import record_penalty
from tests.factories import make_entries, make_game, make_official, make_tournament, play


@dataclass
class Played:
    tournament: Tournament
    entries: list[Entry]
    organizer: object
    player: Player
    token: str


@pytest.fixture
def played(db) -> Played:
    tournament = make_tournament(slug="malta-cup", name="Malta Cup", games=2, city="Valletta")
    entries = make_entries(tournament, 8)
    for n, entry in enumerate(entries):
        Player.objects.filter(pk=entry.player_id).update(name=f"Entrant {'ABCDEFGH'[n]}", email=f"p{n}@example.com",
                                                         date_of_birth=date(1980 + n, 2, 3))
    organizer = make_official(tournament, "organizer")
    referee = make_official(tournament, "referee")
    # the player erased (entries[0]) is tied with nobody: 10 + 1 VP (tied players are listed by name)
    for number, order, vps in ((1, entries, ([10, 7, 5, 3], [10, 8, 6, 2])),
                               (2, entries[::-1], ([10, 6, 5, 4], [10, 8, 6, 1]))):
        game = make_game(tournament, [order[:4], order[4:]], number=number)
        for table, table_vps in zip(game.tables.order_by("number"), vps):
            play(table, table_vps, referee)
    record_penalty(entries[0].pk, user=referee, kind="warning", reason="Slow play, told twice")
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    recompute_all()
    player = Player.objects.get(pk=entries[0].player_id)
    player = change_player(player.pk, user=organizer, tournament=tournament, name="Maria Vella")
    Registration.objects.create(tournament=tournament, player=player, entry=entries[0], name="Maria Vella",
                                email=player.email, city="Sliema", status=Registration.Status.ENTERED,
                                confirm_digest="d" * 64, confirmed_at=timezone.now())
    PushSubscription.objects.create(player=player, endpoint="https://push.example.com/maria", p256dh="k", auth="a")
    token = links.issue(player)
    return Played(tournament, entries, organizer, player, token)
