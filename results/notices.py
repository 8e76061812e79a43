"""The email each seated player gets when a game's seating is published: their table and play order, in the
language they registered in, with a calendar file of the tournament's day (their tables so far). Composed in the
background after the publication commits (`results.tasks`), one email per player through `core.mail`."""
from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from championships.links import absolute
from core.ics import CONTENT_TYPE, calendar
from core.mail import queue_email
from scheduling.calendar import tournament_event
from scheduling.models import Game, Seat


def send_seating_notices(game_id: int) -> int:
    """Queue the seating email of every player of the game who has an email; returns how many."""
    game = Game.objects.select_related("tournament", "stage").filter(pk=game_id).first()
    if game is None or game.status == Game.Status.PLANNED:
        return 0
    tournament = game.tournament
    seats = (Seat.objects.filter(game=game).exclude(entry__player__email="")
             .select_related("entry__player", "table").order_by("table__number", "position"))
    sent = 0
    for seat in seats:
        player = seat.entry.player
        with translation.override(player.language or settings.LANGUAGE_CODE):
            values = {"game": game.number, "table": seat.table.number, "position": seat.position,
                      "tournament": tournament.name, "name": player.name}
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
            queue_email(player.email, _("Game %(game)d: table %(table)d · %(tournament)s") % values, "\n".join(body),
                        attachments=attachments)
        sent += 1
    return sent
