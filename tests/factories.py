"""Small builders for test data; each returns saved rows with sensible defaults."""
from datetime import date
from itertools import count

from django.contrib.auth import get_user_model

from championships.countries import country_for_code
from championships.models import Championship, Entry, Player, Stage, Tournament

_serial = count(1)


def make_user(username: str | None = None, **fields):
    username = username or f"user{next(_serial)}"
    return get_user_model().objects.create_user(username=username, password="pw-for-tests-only", **fields)


def make_admin():
    """The superuser that sets tests up through the services (they all take an acting user)."""
    user, created = get_user_model().objects.get_or_create(username="test-admin", defaults={"is_superuser": True})
    return user


def make_player(name: str | None = None, *, born: date = date(1990, 1, 1), country: str = "AE", **fields) -> Player:
    return Player.objects.create(
        name=name or f"Player {next(_serial)}", date_of_birth=born, country=country_for_code(country), **fields,
    )


def make_championship(**fields) -> Championship:
    n = next(_serial)
    defaults = dict(name=f"Championship {n}", slug=f"championship-{n}", year=2022, age_cutoff=date(2022, 11, 17),
                    country=country_for_code("AE"))
    return Championship.objects.create(**{**defaults, **fields})


def make_tournament(*, games: int = 3, ruleset: str = "cnc-2022", championship=None, **fields) -> Tournament:
    n = next(_serial)
    championship = championship or make_championship()
    defaults = dict(name=f"Qualifier {n}", slug=f"qualifier-{n}", kind="qualifier", ruleset=ruleset,
                    date=date(2022, 6, 11), championship=championship)
    tournament = Tournament.objects.create(**{**defaults, **fields})
    Stage.objects.create(tournament=tournament, order=1, kind="preliminary", name="Qualifier", games=games,
                         seating="scheduled")
    return tournament


def make_entries(tournament: Tournament, n: int, **player_fields) -> list[Entry]:
    return [Entry.objects.create(tournament=tournament, player=make_player(**player_fields)) for _ in range(n)]


def make_game(tournament: Tournament, tables: list[list[Entry]], number: int = 1, stage: Stage | None = None):
    """A published game seating the given entries, table by table in play order, its record sheets open."""
    from results.publishing import open_sheet
    from scheduling.models import Game, Seat, Table

    game = Game.objects.create(tournament=tournament, stage=stage or tournament.stages.order_by("order").first(),
                               number=number, status=Game.Status.PUBLISHED)
    for table_number, players in enumerate(tables, start=1):
        table = Table.objects.create(game=game, number=table_number)
        Seat.objects.bulk_create(Seat(table=table, game=game, entry=entry, position=position)
                                 for position, entry in enumerate(players, start=1))
        open_sheet(table)
    return game


def make_official(tournament: Tournament, role: str = "referee", username: str | None = None):
    from championships.services import assign_staff

    user = make_user(username)
    assign_staff(user, role, tournament=tournament, user=make_admin())
    return user


def play(table, vps, user, start=None, end=None):
    """Enter the table's VP in play order, have every player sign by tap, and sign the sheet off."""
    from results.sheets import SheetInput, save_entry, sign, sign_off

    seats = list(table.seats.order_by("position"))
    data = SheetInput(dict(zip((s.entry_id for s in seats), vps)), None, start, end)
    sheet = save_entry(table.sheet.pk, data, user=user, base_version=0)
    for seat in seats:
        sheet = sign(sheet.pk, seat.entry_id, user=user, method="tap", version=sheet.version)
    return sign_off(sheet.pk, user=user, version=sheet.version)


def admin_save(obj, user=None):
    """Save `obj` as the Django admin's change form does: the row, then its logged change, which audits it and
    announces it (`audit.admin.AuditedAdminMixin`)."""
    from django.contrib import admin
    from django.test import RequestFactory

    request = RequestFactory().post("/admin/")
    request.user = user or make_admin()
    obj.save()
    admin.site._registry[type(obj)].log_change(request, obj, "Changed in the admin.")
