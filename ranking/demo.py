"""A living demo: a UAE-style championship with two qualifiers, rebuilt the same way on every run."""
from dataclasses import dataclass
from pathlib import Path

from django.contrib.auth import get_user_model
from django.db import transaction

from championships.models import Championship, Player, Relationship, StaffRole, Tournament
from championships.roster import parse_roster
from championships.services import assign_staff, create_championship_from_preset, enter_players, register_players

DEMO_SLUG = "demo-uae-championship"
DEMO_EMAIL_DOMAIN = "@example.org"
ROSTER = Path(__file__).with_name("demo_players.csv")
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
    championship = create_championship_from_preset("uae-2022", year=2026, name="Demo UAE Championship 2026")
    championship.slug = DEMO_SLUG
    championship.save(update_fields=["slug"])
    dubai, abu_dhabi, finals = championship.tournaments.order_by("date")

    players = list(register_players(parse_roster(ROSTER.read_text(encoding="utf-8"))).items())
    enter_players(dubai, dict(players[:26]))
    enter_players(abu_dhabi, dict(players[21:]))

    organizer = _staff_user("organizer", LOGINS["organizer"])
    assign_staff(organizer, StaffRole.Role.ORGANIZER, championship=championship)
    referee = _staff_user("referee", LOGINS["referee"])
    for tournament in (dubai, abu_dhabi):
        assign_staff(referee, StaffRole.Role.REFEREE, tournament=tournament)

    for tournament, status in ((dubai, Tournament.Status.FINISHED), (abu_dhabi, Tournament.Status.RUNNING)):
        tournament.status = status
        tournament.save(update_fields=["status"])
    return DemoSummary(championship, [dubai, abu_dhabi, finals], LOGINS)
