"""The registry of audited actions: what `record_change` accepts, the names stored, and that every one is told."""
import ast
import re
from pathlib import Path

import pytest

from audit.actions import Action, Kind
from audit.models import AuditEntry
from audit.services import record_change, record_change_in
from tests.factories import make_entries, make_official, make_tournament

ROOT = Path(__file__).resolve().parents[2]
SKIPPED = {".venv", "node_modules", "migrations", ".git", "__pycache__"}

RELEASED = {
    "seating.generated", "seating.swapped", "seating.published", "seating.unpublished", "seating.status_repaired",
    "seating.play_order", "seating.seeded", "board.changed", "board.limits", "clock.start", "clock.pause",
    "clock.resume", "clock.end", "clock.reset", "turns.on", "turns.off", "sheet.entered", "sheet.signature.drawn",
    "sheet.signature.tap", "sheet.signature.overruled", "sheet.signed_off", "sheet.corrected", "sheet.banker",
    "penalty.lateness", "penalty.warning", "penalty.collusion", "penalty.vp_deduction", "penalty.disqualification",
    "penalty.withdrawn", "penalty.collusion_ruling", "draw.cards", "draw.lots", "qualification.advanced",
    "qualification.replaced", "entry.registered", "entry.checked_in", "entry.check_in_undone",
    "entry.not_admitted_undone", "entry.no_show_undone", "entry.withdrawal_undone", "entry.no_show",
    "entry.withdrawn", "entry.removed", "entry.not_admitted", "player.registered", "player.updated",
    "relationship.declared", "relationship.removed", "staff.assigned", "staff.removed", "staff.unlocked",
    "staff.account_created", "announcement.posted", "announcement.removed", "tournament.status",
    "tournament.closed", "tournament.reopened", "championship.created", "admin.added", "admin.changed",
    "admin.deleted",
}
"""What AuditEntry.action held before the registry: rows and backups with these values must keep reading."""

BLANK = re.compile(r"%\((\w+)\)s")


def python_files():
    for path in ROOT.rglob("*.py"):
        if not SKIPPED.intersection(path.relative_to(ROOT).parts):
            yield path


def calls_of(tree: ast.AST, *names: str):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name in names:
                yield node


def test_the_released_names_are_all_still_members():
    assert {action.value for action in Action} >= RELEASED
    assert all(len(action) <= AuditEntry._meta.get_field("action").max_length for action in Action)


def test_every_member_has_a_kind_a_label_and_a_usual_or_variant_sentence():
    for action in Action:
        assert action.value.startswith(f"{action.kind}."), action
        assert str(action.label) and not BLANK.search(str(action.label)), action
        assert action.sentences, action
        for variant, sentence in action.sentences.items():
            text = str(sentence)
            assert text.replace("%%", "").count("%") == len(BLANK.findall(text)), (action, variant)
    assert len({str(action.label) for action in Action}) == len(Action), "two actions would read the same"
    assert {action.kind for action in Action} == set(Kind), "the filter offers a kind no change is of"


@pytest.mark.django_db
def test_record_change_takes_a_member_and_stores_its_released_name():
    tournament = make_tournament()
    entry = make_entries(tournament, 1)[0]
    organizer = make_official(tournament, "organizer")
    before = AuditEntry.objects.count()
    with pytest.raises(TypeError, match="audit.actions.Action"):
        record_change(organizer, tournament.pk, "entry.checked_in", entry)
    with pytest.raises(TypeError, match="audit.actions.Action"):
        record_change_in(organizer, [tournament.pk], "player.updated", entry.player)
    assert AuditEntry.objects.count() == before

    record_change(organizer, tournament.pk, Action.ENTRY_CHECKED_IN, entry, before={"status": "registered"},
                  after={"player": "A", "status": "checked_in", "minutes_late": 0})
    stored = AuditEntry.objects.latest("pk")
    assert stored.action == "entry.checked_in" and type(stored.action) is str and stored.kind == "entry"


def test_every_call_site_names_a_member_not_a_string():
    """Literal, formatted and joined strings are refused where they are written; `record_change` refuses any other
    string at run time."""
    found, strings = 0, []
    for path in python_files():
        if path == Path(__file__):  # the refusals above
            continue
        for call in calls_of(ast.parse(path.read_text(encoding="utf-8")), "record_change", "record_change_in"):
            given = call.args[2] if len(call.args) > 2 else next(
                (k.value for k in call.keywords if k.arg == "action"), None)
            if given is None:  # record_change_in passing its own arguments on (audit/services.py)
                continue
            found += 1
            if isinstance(given, ast.Constant | ast.JoinedStr | ast.BinOp) or (
                    isinstance(given, ast.Call) and ast.unparse(given.func) in {"Action", "str"}):
                strings.append(f"{path.relative_to(ROOT)}:{call.lineno}: {ast.unparse(given)}")
    assert found >= 40 and not strings, strings


def test_every_member_is_written_by_some_service():
    """A member no code writes is dead; each one is named as `Action.NAME` in a module that records changes (the
    activity log, which names them to tell them, does not count)."""
    named = set()
    for path in python_files():
        if path.is_relative_to(ROOT / "tests"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if not any(calls_of(tree, "record_change", "record_change_in")):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Action":
                named.add(node.attr)
    assert {action.name for action in Action} - named == set()
