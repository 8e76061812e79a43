"""Seed the harness's database through the services, then print what the clients need as one JSON line.

`python -m reliability.seed --played N [--seating-target]`, with the app's environment (see stack.py):
a championship from the UAE preset (and the next year's past its two qualifiers), 80 players entered in N
qualifiers, 20 referees (staff roles of those qualifiers), every game seated and published; with
--seating-target, a qualifier of another championship with its players entered but no seating yet, for the Celery
task of `make chaos`.
"""
import argparse
import json
from datetime import date

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.models import Permission  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import URLPattern, reverse  # noqa: E402

from catan_tournaments.routes import api as api_routes  # noqa: E402
from catan_tournaments.routes import public as public_routes  # noqa: E402
from championships.list_file import ListRow  # noqa: E402
from championships.models import StaffRole, Tournament  # noqa: E402
from championships.services import (  # noqa: E402
    assign_staff,
    create_championship_from_preset,
    enter_players,
    register_players,
)
from results.publishing import publish_game  # noqa: E402
from scheduling.models import Game  # noqa: E402
from scheduling.services import generate_seating  # noqa: E402

PLAYERS = 80
REFEREES = 20
SEATING_BUDGET = 20_000
TARGET_PLAYERS = 2000
"""The seating target's players: far more than a stage planned within the request (256), so Celery plans it,
for a second or two (the pool process is killed in the middle)."""
ORGANIZER = ("load-organizer", "organizer-pass-for-the-load-harness")


def _user(username: str, password: str):
    user, _created = get_user_model().objects.get_or_create(username=username)
    user.set_password(password)
    user.save()
    return user


def _players(organizer, tournament: Tournament, prefix: str, count: int = PLAYERS) -> dict:
    rows = [ListRow(line=i + 2, name=f"{prefix} {i + 1:03d}", email=f"{prefix.lower()}-{i + 1}@load.invalid",
                    date_of_birth=date(1990, 1, 1), country="AE", friends_or_family=())
            for i in range(count)]
    return register_players(rows, user=organizer, tournament=tournament)


def _published(tournament: Tournament, organizer) -> list[dict]:
    stage = tournament.stages.get()
    generate_seating(stage.pk, user=organizer, seed=1, budget=SEATING_BUDGET)
    games = []
    for game in Game.objects.filter(stage=stage).order_by("number"):
        publish_game(game.pk, user=organizer)
        games.append({"id": game.pk, "number": game.number, "tournament": tournament.slug, "tables": [
            {"id": table.pk, "number": table.number,
             "seats": [{"entry": seat.entry_id, "player": seat.entry.player.name}
                       for seat in table.seats.select_related("entry__player").order_by("position")]}
            for table in game.tables.order_by("number")]})
    return games


def public_paths(tournament: Tournament, game_number: int) -> dict[str, str]:
    """Every public page and API address that answers 200, from the URL modules (pages added later count too).

    A `slug` is the tournament's or else the championship's, whichever the page knows.
    """
    client = Client(HTTP_HOST=settings.ALLOWED_HOSTS[0])  # the stack's site name
    paths = {}
    for pattern in [*public_routes.urlpatterns, *api_routes.urlpatterns]:
        if not isinstance(pattern, URLPattern) or not pattern.name:
            continue
        names = set(pattern.pattern.converters)
        championship = tournament.championship
        assert championship is not None  # the load's tournament is a qualifier of the seeded championship
        for slug in (tournament.slug, championship.slug):
            values = {"slug": slug, "number": game_number, "championship_slug": championship.slug}
            if not names <= set(values):
                break
            path = reverse(pattern.name, kwargs={k: values[k] for k in names})
            if client.get(path, secure=True).status_code == 200:
                paths[pattern.name] = path
                break
    return paths


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--played", type=int, default=1, help="qualifiers whose games are published and played")
    parser.add_argument("--seating-target", action="store_true")
    options = parser.parse_args()

    organizer = _user(*ORGANIZER)
    organizer.user_permissions.add(Permission.objects.get(codename="add_championship",
                                                          content_type__app_label="championships"))
    qualifiers: list[Tournament] = []
    for year in range(2026, 2026 + options.played):  # the preset has two qualifiers; more come from another year
        championship = create_championship_from_preset("uae-2022", user=organizer, year=year,
                                                       name=f"Load championship {year}")
        qualifiers += championship.tournaments.filter(kind=Tournament.Kind.QUALIFIER).order_by("date")
        if len(qualifiers) >= options.played:
            break
    qualifiers = qualifiers[: options.played]
    players = _players(organizer, qualifiers[0], "Player")
    referees = [(f"load-referee-{i + 1:02d}", f"referee-pass-{i + 1:02d}-for-the-load-harness")
                for i in range(REFEREES)]
    games = []
    for tournament in qualifiers:
        enter_players(tournament, players, user=organizer)
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
        for username, password in referees:
            assign_staff(_user(username, password), StaffRole.Role.REFEREE, user=organizer, tournament=tournament)
        games += _published(tournament, organizer)

    target = None
    if options.seating_target:
        other = create_championship_from_preset("uae-2022", user=organizer, year=2099, name="Seating championship")
        tournament = other.tournaments.filter(kind=Tournament.Kind.QUALIFIER).order_by("date")[0]
        enter_players(tournament, _players(organizer, tournament, "Seated", TARGET_PLAYERS), user=organizer)
        target = {"slug": tournament.slug, "stage": tournament.stages.get().pk, "players": TARGET_PLAYERS}

    print(json.dumps({
        "organizer": ORGANIZER, "referees": referees, "games": games, "seating_target": target,
        "tournaments": [t.slug for t in qualifiers], "ruleset": qualifiers[0].ruleset,
        "public": public_paths(qualifiers[0], games[0]["number"]),
    }))


if __name__ == "__main__":
    main()
