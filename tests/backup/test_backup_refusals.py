"""`import_tournament` refuses what a file may not do here (issue 22, item 8).

A tournament file is data someone hands over; the person running the command is trusted, the file is not
(its usernames, slugs and emails are whatever it says). So a file may not add its tournament to a
championship that already exists here unless the command is told which organizer of that championship
it acts for (`--as`), may not declare friends or family between players who play elsewhere, and may not
crash the command: a file nested deeper than any tournament file is refused with exit status 2.
"""
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from audit.models import AuditEntry
from championships.models import Championship, StaffRole, Tournament
from championships.services import assign_staff
from tests.factories import make_admin, make_championship, make_entries, make_official, make_tournament, make_user

pytestmark = pytest.mark.django_db


def run(*args, stdin: str | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        if stdin is not None:
            import sys
            previous, sys.stdin = sys.stdin, io.StringIO(stdin)
            try:
                call_command("import_tournament", *args, stdout=out, stderr=err)
            finally:
                sys.stdin = previous
        else:
            call_command("import_tournament", *args, stdout=out, stderr=err)
    except CommandError as error:
        return error.returncode, out.getvalue(), str(error)
    return 0, out.getvalue(), err.getvalue()


def run_file(tmp_path, text: str, *options) -> tuple[int, str]:
    """(exit status, message) of importing `text` as a file."""
    path = tmp_path / "t.json"
    path.write_text(text)
    status, _out, message = run(str(path), *options)
    return status, message


def exported(slug: str) -> str:
    out = io.StringIO()
    call_command("export_tournament", slug, stdout=out)
    return out.getvalue()


# Nesting: the JSON parser recursed until Python gave up (RecursionError, a traceback, exit status 1).

@pytest.mark.parametrize("text", [
    "[" * 100_000 + "]" * 100_000,
    '{"a":' * 100_000 + "1" + "}" * 100_000,
    '{"format": "catan-tournament", "version": 1, "tournament": "x", "objects": ' + "[" * 50_000 + "]" * 50_000 + "}",
])
def test_a_deeply_nested_file_exits_2_with_a_message(tmp_path, text):
    path = tmp_path / "deep.json"
    path.write_text(text)
    status, _out, message = run(str(path))
    assert status == 2 and message == f"{path}: nested too deeply to be a tournament file; nothing was imported"
    assert not Tournament.objects.exists()


def test_deep_nesting_from_stdin_exits_2_too():
    status, _out, message = run("-", stdin="[" * 100_000)
    assert status == 2 and message == "-: nested too deeply to be a tournament file; nothing was imported"


def test_a_file_nested_deeper_than_any_tournament_file_is_refused_before_its_rows_are_read(tmp_path):
    """The parser copes with 100 levels, but the rows' JSON values (an audit entry's `after`) are walked
    recursively again (re-linking, encoding for the database), some way down the stack: how deep they may go
    without a RecursionError depends on where they are walked. A tournament file uses about eight levels."""
    tournament = make_tournament(slug="nested")
    make_entries(tournament, 4)
    make_official(tournament, "organizer", "deep-organizer")
    data = json.loads(exported("nested"))
    Tournament.objects.all().delete()
    objects = data["objects"]
    objects.append({"model": "audit.auditentry", "pk": 999_999, "fields": {
        "tournament": next(o["pk"] for o in objects if o["model"] == "championships.tournament"),
        "user": next(o["pk"] for o in objects if o["model"] == "auth.user"), "action": "sheet.entered",
        "object_type": "tournament", "object_id": 1, "before": None, "after": "DEEP", "reason": "",
        "at": "2022-06-11T10:00:00+04:00"}})
    path = tmp_path / "nested.json"
    path.write_text(json.dumps(data).replace('"DEEP"', '{"x": ' * 100 + "1" + "}" * 100))
    status, _out, message = run(str(path))
    assert status == 2
    assert message == f"{path}: nested more than 32 levels deep: not a tournament file; nothing was imported"
    assert not Tournament.objects.exists()


# Another organizer's championship.

def _championship_of_someone_else():
    """A championship here with its organizer, and a file of a tournament of it (deleted again, as after a loss)."""
    owner = make_user("owner")
    championship = make_championship(slug="uae-2030")
    assign_staff(owner, StaffRole.Role.ORGANIZER, championship=championship, user=make_admin())
    tournament = make_tournament(slug="dubai-2030", championship=championship)
    make_official(tournament, "organizer", "file-organizer")
    make_entries(tournament, 4)
    text = exported("dubai-2030")
    Tournament.objects.filter(slug="dubai-2030").delete()
    return owner, championship, text


def test_a_file_cannot_add_its_tournament_to_an_existing_championship_by_naming_it(tmp_path):
    _owner, championship, text = _championship_of_someone_else()
    status, message = run_file(tmp_path, text)
    assert status == 2 and "uae-2030" in message and "--as" in message
    assert not Tournament.objects.filter(slug="dubai-2030").exists()
    assert list(championship.tournaments.all()) == []


def test_an_organizer_of_another_championship_cannot_be_named_to_get_in(tmp_path):
    _owner, championship, text = _championship_of_someone_else()
    stranger = make_user("stranger")
    assign_staff(stranger, StaffRole.Role.ORGANIZER, championship=make_championship(), user=make_admin())
    status, message = run_file(tmp_path, text, "--as", "stranger")
    assert status == 2 and "stranger" in message and "uae-2030" in message
    assert not Tournament.objects.filter(slug="dubai-2030").exists()


def test_the_championships_organizer_restores_the_tournament_into_it(tmp_path):
    _owner, championship, text = _championship_of_someone_else()
    status, message = run_file(tmp_path, text, "--as", "owner")
    assert status == 0, message
    assert Tournament.objects.get(slug="dubai-2030").championship == championship


def test_an_unknown_acting_username_exits_2(tmp_path):
    _owner, _championship, text = _championship_of_someone_else()
    status, message = run_file(tmp_path, text, "--as", "nobody")
    assert status == 2 and "nobody" in message


def test_a_new_championship_needs_no_acting_organizer(tmp_path):
    tournament = make_tournament(slug="fresh")
    make_entries(tournament, 4)
    text = exported("fresh")
    Tournament.objects.all().delete()
    Championship.objects.all().delete()
    AuditEntry.objects.all().delete()
    assert run_file(tmp_path, text)[0] == 0


# Friends and family between players of another championship.

def _a_file_declaring_a_pair_of_players_who_play_elsewhere():
    """Ann and Bob play in another organizer's championship; a file of a tournament elsewhere declares them a pair
    (it was exported where that pair had been declared, and the pair is not here)."""
    from championships.models import Player, Relationship
    from championships.relationships import declare_relationship

    theirs = make_tournament(slug="theirs")
    ann, bob = (Player.objects.create(name=name, email=f"{name.lower()}@example.com") for name in ("Ann", "Bob"))
    for player in (ann, bob):
        theirs.entries.create(player=player)
    mine = make_tournament(slug="mine")
    for player in (ann, bob):
        mine.entries.create(player=player)
    declare_relationship(ann, bob, "friend", user=make_admin(), tournament=mine)
    text = exported("mine")
    Tournament.objects.filter(slug="mine").delete()
    Championship.objects.filter(tournaments__isnull=True).delete()
    Relationship.objects.all().delete()
    return ann, bob, text


def test_a_file_cannot_declare_a_pair_between_players_of_another_championship(tmp_path):
    from championships.models import Relationship

    _ann, _bob, text = _a_file_declaring_a_pair_of_players_who_play_elsewhere()
    status, message = run_file(tmp_path, text)
    assert status == 2 and "Ann and Bob were already here and play in another championship" in message
    assert not Relationship.objects.exists() and not Tournament.objects.filter(slug="mine").exists()


def test_a_pair_already_here_is_used_as_it_is(tmp_path):
    from championships.models import Relationship
    from championships.relationships import declare_relationship

    ann, bob, text = _a_file_declaring_a_pair_of_players_who_play_elsewhere()
    declare_relationship(ann, bob, "friend", user=make_admin(), tournament=Tournament.objects.get(slug="theirs"))
    assert run_file(tmp_path, text)[0] == 0
    assert Relationship.objects.count() == 1
