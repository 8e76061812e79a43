"""A living demo: a UAE-style championship with two qualifiers, rebuilt the same way on every run.

Dubai is finished (seating and every result signed off); Abu Dhabi is in progress (game 1 signed
off, game 2 half entered, game 3 planned). Everything goes through the same services as the app.
"""
import random
from dataclasses import dataclass
from datetime import time
from pathlib import Path

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import transaction

from championships.models import Championship, Player, Relationship, StaffRole, Tournament
from championships.roster import parse_roster
from championships.services import assign_staff, create_championship_from_preset, enter_players, register_players
from results.publishing import publish_game
from results.sheets import SheetInput, save_entry, sign, sign_off
from scheduling.models import Game, Table
from scheduling.services import generate_seating

DEMO_SLUG = "demo-uae-championship"
DEMO_EMAIL_DOMAIN = "@example.org"
ROSTER = Path(__file__).with_name("players.csv")
LOGINS = {"organizer": "organizer-demo", "referee": "referee-demo"}


@dataclass(frozen=True)
class DemoSummary:
    championship: Championship
    tournaments: list[Tournament]
    logins: dict[str, str]


def _remove_previous_demo() -> None:
    championship = Championship.objects.filter(slug=DEMO_SLUG).first()
    if championship is not None:
        for tournament in championship.tournaments.all():
            tournament.games.all().delete()
        championship.delete()
    demo_players = Player.objects.filter(email__endswith=DEMO_EMAIL_DOMAIN)
    Relationship.objects.filter(player_a__in=demo_players).delete()
    demo_players.delete()


def _staff_user(username: str, password: str):
    user, _created = get_user_model().objects.get_or_create(username=username)
    user.set_password(password)
    user.is_active = True
    user.save()
    StaffRole.objects.filter(user=user).delete()
    return user


@transaction.atomic
def seed_demo() -> DemoSummary:
    """Replace any earlier demo with a fresh one, so two runs leave the same data."""
    _remove_previous_demo()
    organizer = _staff_user("organizer", LOGINS["organizer"])
    organizer.user_permissions.add(Permission.objects.get(codename="add_championship",
                                                          content_type__app_label="championships"))
    championship = create_championship_from_preset("uae-2022", user=organizer, year=2026,
                                                   name="Demo UAE Championship 2026")
    championship.slug = DEMO_SLUG
    championship.save(update_fields=["slug"])
    dubai, abu_dhabi, finals = championship.tournaments.order_by("date")

    players = list(register_players(parse_roster(ROSTER.read_text(encoding="utf-8")), user=organizer).items())
    enter_players(dubai, dict(players[:26]), user=organizer)
    enter_players(abu_dhabi, dict(players[21:]), user=organizer)

    referee = _staff_user("referee", LOGINS["referee"])
    for tournament in (dubai, abu_dhabi):
        assign_staff(referee, StaffRole.Role.REFEREE, user=organizer, tournament=tournament)

    rng = random.Random(2026)
    for tournament, status in ((dubai, Tournament.Status.FINISHED), (abu_dhabi, Tournament.Status.RUNNING)):
        tournament.status = status
        tournament.save(update_fields=["status"])
        generate_seating(tournament.stages.get().pk, user=organizer, seed=7)
    for game in Game.objects.filter(tournament=dubai).order_by("number"):
        _play(game, organizer, referee, rng, tables=None)
    game_one, game_two = Game.objects.filter(tournament=abu_dhabi).order_by("number")[:2]
    _play(game_one, organizer, referee, rng, tables=None)
    _play(game_two, organizer, referee, rng, tables=3, sign_off_first=2)
    return DemoSummary(championship, [dubai, abu_dhabi, finals], LOGINS)


def _result(rng: random.Random, size: int) -> list[int]:
    """Plausible VP for one table: a winner with 10 (now and then 11), the others 2 to 9."""
    vps = [rng.randint(2, 9) for _ in range(size)]
    vps[rng.randrange(size)] = 11 if rng.random() < 0.1 else 10
    return vps


def _play(game: Game, organizer, referee, rng: random.Random, *, tables: int | None,
          sign_off_first: int | None = None) -> None:
    """Publish the game and enter the results of its first `tables` tables (all when None)."""
    publish_game(game.pk, user=organizer)
    chosen = list(Table.objects.filter(game=game).order_by("number").select_related("sheet"))[:tables]
    for index, table in enumerate(chosen):
        seats = list(table.seats.order_by("position"))
        sheet = table.sheet
        start = time(10 + 2 * (game.number - 1), rng.choice([0, 5, 10]))
        end = time(start.hour + 1, rng.randint(15, 55))
        data = SheetInput(dict(zip((s.entry_id for s in seats), _result(rng, len(seats)))), None, start, end)
        sheet = save_entry(sheet.pk, data, user=referee, base_version=0)
        if sign_off_first is not None and index >= sign_off_first:
            continue
        for seat in seats:
            sheet = sign(sheet.pk, seat.entry_id, user=referee, method="tap", version=sheet.version)
        sign_off(sheet.pk, user=referee, version=sheet.version)
