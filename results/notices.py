"""The email each seated player gets when a game's seating is published: their table and play order, in the
language they registered in, with a calendar file of the tournament's day (their tables so far). Composed in the
background after the publication commits (`results.tasks`), one email per player through `core.mail`.

Where Web Push is configured, each phone a seated player subscribed is told too (`send_seating_pushes`): the title
says the game and table, and the notification opens the game's public page of all tables, as the email's first
link does. The private link is not in it, as it is not in the email: a notification shows on a locked screen and
goes through the push service of the browser's maker (encrypted, but kept there until the phone is on); the
service worker opens the player's own page instead when it is already open on the phone (static/js/sw.js)."""
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from championships import push
from core import webpush
from core.ics import CONTENT_TYPE, calendar
from core.mail import queue_email
from core.site import absolute
from scheduling.calendar import tournament_event
from scheduling.models import Game, Seat


def _published(game_id: int) -> Game | None:
    game = Game.objects.select_related("tournament", "stage").filter(pk=game_id).first()
    return None if game is None or game.status == Game.Status.PLANNED else game


def _each_seated(game: Game, seats: QuerySet[Seat]) -> Iterator[tuple[Seat, dict[str, Any]]]:
    """Each seat of the game (by table and play order), with the player's language active while it is handled,
    and the values its message fills in."""
    for seat in seats.filter(game=game).select_related("entry__player", "table").order_by("table__number", "position"):
        player = seat.entry.player
        with translation.override(player.language or settings.LANGUAGE_CODE):
            yield seat, {"game": game.number, "table": seat.table.number, "position": seat.position,
                         "tournament": game.tournament.name, "name": player.name}


def send_seating_notices(game_id: int) -> int:
    """Queue the seating email of every player of the game who has an email; returns how many."""
    game = _published(game_id)
    if game is None:
        return 0
    tournament = game.tournament
    sent = 0
    for seat, values in _each_seated(game, Seat.objects.exclude(entry__player__email="")):
        event = tournament_event(tournament, entry=seat.entry,
                                 url=absolute(reverse("public-tournament", args=[tournament.slug])))
        body = [_("Hello %(name)s,") % values, "",
                _("The seating of game %(game)d of %(tournament)s is published: you play at table %(table)d, in "
                  "position %(position)d (position 1 starts).") % values, "",
                _("All tables of the game:"), absolute(reverse("public-game", args=[tournament.slug, game.number])),
                "", _("Your own page (with your tables, results and the result to confirm) is the private link we "
                      "sent you; to have it sent again:"), absolute(reverse("players-me-home"))]
        attachments = ((f"{tournament.slug}.ics", calendar([event], name=tournament.name, now=timezone.now()),
                        CONTENT_TYPE),) if event is not None else ()
        queue_email(seat.entry.player.email, _("Game %(game)d: table %(table)d · %(tournament)s") % values,
                    "\n".join(body), attachments=attachments, about=[tournament])
        sent += 1
    return sent


def send_seating_pushes(game_id: int) -> int:
    """Tell each subscribed phone of each player of the game their table, now (a background job); returns how many
    notifications went through. Nothing when Web Push is not configured."""
    game = _published(game_id) if webpush.configured() else None
    if game is None:
        return 0
    delivered = 0
    subscribed = Seat.objects.filter(entry__player__push_subscriptions__isnull=False).distinct()
    for seat, values in _each_seated(game, subscribed):
        delivered += push.notify(seat.entry.player, {
            "title": _("Game %(game)d: table %(table)d · %(tournament)s") % values,
            "body": _("%(tournament)s: you play at table %(table)d, in position %(position)d (position 1 starts).")
            % values,
            "table": seat.table.number, "game": game.number, "tag": f"game-{game.pk}",
            "url": absolute(reverse("public-game", args=[game.tournament.slug, game.number]))})
    return delivered
