"""One cache-invalidation path (issue 35 item 3): every service that changes what a tournament's public pages,
standings or seating show calls `core.changes.announce`, and no model save is watched.

The services are found in the source (every function that calls `announce`) and must match the declared list
below, each with the reason it announces; every function that writes a row the public pages show (an entry, a
stage, a game, its tables and seats, an announcement, a tournament, a championship, a player) either announces or
is declared as part of a service that does, or as a write no public page shows. Then each service with a scenario
is run: after it commits, the tournament's results version has moved and the live update was queued."""
import ast
import re
from pathlib import Path

import pytest

from attendance.checkin import mark_no_show, withdraw
from championships.models import Entry
from championships.people import remove_entries
from championships.services import change_player, enter_player
from championships.setup import close_tournament
from core.changes import tournament_changed
from privacy.erasure import erase
from ranking.standings import results_version
from results.announcements import post_announcement
from results.publishing import publish_game
from scheduling.boards import change_board
from scheduling.services import generate_seating
from tests import factories
from tests.factories import make_admin, make_entries, make_game, make_official, make_tournament, play

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
APPS = ["audit", "championships", "scheduling", "results", "calls", "ranking", "ratings", "privacy", "notices",
        "attendance", "printing", "backup", "webhooks", "demo"]

SHOWN = ["Entry", "Stage", "Game", "Table", "Seat", "Announcement", "Tournament", "Championship", "Player"]
"""The models whose rows the public pages show (what `post_save` receivers used to watch, and the seating)."""
INSTANCES = {"entry", "finalist", "game", "tournament", "locked", "player", "championship", "announcement",
             "stage"}
"""The names the services give such rows (`locked`: the tournament `signup.change_settings` locks)."""
RELATED = {"entries", "games", "stages", "tables", "seats"}
WRITES = {"save", "delete", "update", "bulk_update", "bulk_create", "create", "update_or_create", "get_or_create"}

ANNOUNCING = {
    "audit.admin.AuditedAdminMixin.log_addition": "an edit in the Django admin",
    "audit.admin.AuditedAdminMixin.log_change": "an edit in the Django admin",
    "audit.admin.AuditedAdminMixin.log_deletions": "a deletion in the Django admin",
    "championships.people.remove_entries": "entries taken out",
    "championships.services.change_player": "a player's name or country",
    "championships.services.enter_player": "an entry",
    "championships.setup.advance_status": "the tournament's status",
    "championships.setup._set_status": "the tournament closed or reopened",
    "championships.signup._player_for": "a registered player's country",
    "championships.signup.cancel": "an entry withdrawn by the player",
    "championships.signup.change_settings": "registration opened or closed (the overview offers it)",
    "championships.waiting_list.take_place_or_wait": "an entry from a registration",
    "championships.waiting_list.place_freed": "entries from the waiting list",
    "demo.seed.seed_demo": "the demo's tournaments, some of whose steps write directly",
    "backup.restore.restore_tournament": "a tournament restored",
    "attendance.checkin.admit": "checked in, late (a penalty)",
    "attendance.checkin.undo": "a check-in undone",
    "attendance.checkin.mark_no_show": "no-shows (a bulk update)",
    "attendance.checkin.withdraw": "a withdrawal",
    "privacy.erasure.erase": "a player's name replaced by a pseudonym",
    "ranking.qualification.advance_qualifiers": "finalists entered, the qualifier's standings mark them",
    "ranking.qualification.replace_finalist": "a finalist replaced",
    "ranking.qualification.seat_seeded_stage": "a stage seated by rank",
    "ranking.qualification.clear_seeded_stage": "a stage seated by rank cleared",
    "results.announcements.post_announcement": "an announcement",
    "results.announcements.remove_announcement": "an announcement taken down",
    "results.draws.record_draw": "a tiebreak draw",
    "results.penalties._create": "a penalty",
    "results.penalties.record_lateness": "a late arrival",
    "results.penalties.withdraw_penalty": "a penalty withdrawn",
    "results.publishing.publish_game": "a game's seating published",
    "results.publishing.unpublish_game": "a game taken back",
    "results.publishing.reconcile_game_status": "a game's status repaired",
    "results.publishing.record_play_order": "a table's play order",
    "results.sheets.sign_off": "a sheet signed off (its game finished by a queryset update)",
    "results.sheets.correct": "a correction",
    "scheduling.boards.change_board": "a game's board",
    "scheduling.clocks.change_clock": "the map-study clock on the public screens",
    "scheduling.clocks.set_timed_turns": "a table's timed turns, on its players' phones",
    "scheduling.services.generate_seating": "a stage's planned games",
}
"""Every service that announces, and what it changed."""

PARTS = {
    "demo.seed._demo_championship": "demo.seed.seed_demo",
    "demo.seed._national": "demo.seed.seed_demo",
    "demo.seed._at_the_door": "demo.seed.seed_demo",
    "demo.seed._finished_event": "demo.seed.seed_demo",
    "ranking.qualification._enter_finalist": "ranking.qualification.advance_qualifiers",
    "scheduling.boards.deal_boards": "results.publishing.publish_game",
    "scheduling.services.write_games": "scheduling.services.generate_seating",
    "scheduling.services.replace_with_seeded_game": "ranking.qualification.seat_seeded_stage",
    "scheduling.services.remove_planned_games": "ranking.qualification.clear_seeded_stage",
    "scheduling.services.mark_published": "results.publishing.publish_game",
    "scheduling.services.mark_planned": "results.publishing.unpublish_game",
    "scheduling.services.mark_finished": "results.sheets.sign_off",
    "scheduling.services.reorder_table": "results.publishing.record_play_order",
}
"""Functions that write such rows as part of a service that announces it."""

UNSHOWN = {
    "championships.services.register_players": "new players are on no page until they are entered",
    "championships.setup.create_championship": "a new championship's tournaments have no pages cached yet",
    "scheduling.services._swap": "seats swapped in a planned game, which no public page shows",
    "scheduling.boards.set_board_limits": "the limits of boards dealt from now on, shown on no page",
    "championships.embedding.set_embed_origins": "the websites that may frame the embed: a header of its answers, "
                                                 "whose cached copies the service drops itself",
}
"""Writes of such rows that no public page shows."""


def _functions() -> dict[str, ast.FunctionDef]:
    found = {}
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts or "management" in path.parts:
                continue
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in tree.body:
                if isinstance(node, ast.FunctionDef):
                    found[f"{module}.{node.name}"] = node
                elif isinstance(node, ast.ClassDef):
                    found.update({f"{module}.{node.name}.{item.name}": item for item in node.body
                                  if isinstance(item, ast.FunctionDef)})
    return found


def _calls(function: ast.FunctionDef) -> list[ast.Call]:
    return [node for node in ast.walk(function) if isinstance(node, ast.Call)]


def _announces(function: ast.FunctionDef) -> bool:
    return any(isinstance(call.func, ast.Name) and call.func.id == "announce" for call in _calls(function))


def _writes_shown_rows(function: ast.FunctionDef) -> bool:
    for call in _calls(function):
        if not isinstance(call.func, ast.Attribute) or call.func.attr not in WRITES:
            continue
        target = call.func.value
        text = ast.unparse(target)
        if re.search(rf"\b({'|'.join(SHOWN)})\.objects\b", text):
            return True
        if isinstance(target, ast.Name) and target.id in INSTANCES and call.func.attr in ("save", "delete"):
            return True
        if re.search(rf"\.({'|'.join(RELATED)})\b", text):
            return True
    return False


FUNCTIONS = _functions()


def test_the_services_that_announce_are_the_declared_ones():
    assert sorted(name for name, function in FUNCTIONS.items() if _announces(function)) == sorted(ANNOUNCING)


def test_every_write_of_a_shown_row_is_announced_by_its_service():
    unannounced = sorted(name for name, function in FUNCTIONS.items()
                         if _writes_shown_rows(function) and not _announces(function)
                         and name not in PARTS and name not in UNSHOWN)
    assert unannounced == []
    assert [part for part, service in PARTS.items() if service not in ANNOUNCING] == []
    # the lists keep up with the code: each names a function that still writes such rows
    assert [name for name in [*PARTS, *UNSHOWN] if name not in FUNCTIONS or not _writes_shown_rows(FUNCTIONS[name])] \
        == []


@pytest.fixture
def cup(django_capture_on_commit_callbacks):
    """A running tournament of 9 players: game 1 published at two tables, one player not seated; a referee. And
    one taking registrations, 3 players entered."""
    tournament = make_tournament(slug="cup", status="running")
    entries = make_entries(tournament, 9)
    make_official(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(tournament, [entries[0:4], entries[4:8]])
    other = make_tournament(slug="other", status="registration")
    return {"t": tournament, "entries": entries, "game": game, "admin": make_admin(), "other": other,
            "others": make_entries(other, 3)}


def _publish_next(cup):
    generate_seating(cup["t"].stages.get().pk, user=cup["admin"], budget=1)
    publish_game(cup["t"].games.get(number=2).pk, user=cup["admin"])


def _admin_change(cup):
    stage = cup["t"].stages.get()
    stage.name = "Heats"
    factories.admin_save(stage, cup["admin"])


def _sign_off_the_game(cup):
    for table in cup["game"].tables.order_by("number"):
        play(table, [10, 7, 5, 3], cup["admin"])


SCENARIOS = {
    "championships.services.enter_player": lambda cup: enter_player(
        factories.make_player(), cup["t"], user=cup["admin"]),
    "championships.services.change_player": lambda cup: change_player(
        cup["entries"][0].player_id, user=cup["admin"], tournament=cup["t"], name="Renamed Player"),
    "championships.people.remove_entries": lambda cup: remove_entries(
        cup["t"], [cup["entries"][8].pk], user=cup["admin"]),
    "championships.setup._set_status": lambda cup: close_tournament(cup["t"].pk, user=cup["admin"], reason="Over"),
    "results.announcements.post_announcement": lambda cup: post_announcement(
        cup["t"].pk, "Lunch at one", user=cup["admin"]),
    "attendance.checkin.withdraw": lambda cup: withdraw(
        cup["t"], cup["entries"][8].pk, user=cup["admin"], reason="Ill"),
    "attendance.checkin.mark_no_show": lambda cup: mark_no_show(
        cup["other"], [e.pk for e in cup["others"]], user=cup["admin"]),
    "results.sheets.sign_off": _sign_off_the_game,
    "scheduling.boards.change_board": lambda cup: change_board(cup["game"].pk, user=cup["admin"]),
    "scheduling.services.generate_seating": lambda cup: generate_seating(
        cup["t"].stages.get().pk, user=cup["admin"], budget=1),
    "results.publishing.publish_game": _publish_next,
    "privacy.erasure.erase": lambda cup: erase(
        cup["entries"][0].player_id, by="organizer", user=cup["admin"], reason="Written request 12"),
    "audit.admin.AuditedAdminMixin.log_change": _admin_change,
}
"""A change made through each of these services, to the running tournament (`OTHER`: to the one registering)."""
OTHER = {"attendance.checkin.mark_no_show"}


def test_every_scenario_names_a_declared_service():
    assert [name for name in SCENARIOS if name not in ANNOUNCING] == []


@pytest.mark.parametrize("service", sorted(SCENARIOS))
def test_after_the_service_commits_the_results_version_has_moved(service, cup, django_capture_on_commit_callbacks):
    tournament = cup["other"] if service in OTHER else cup["t"]
    heard = []

    def listen(sender, tournament_id, results, **kwargs):
        heard.append(tournament_id)

    before = results_version(tournament.pk)
    tournament_changed.connect(listen)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            SCENARIOS[service](cup)
    finally:
        tournament_changed.disconnect(listen)
    assert tournament.pk in heard
    assert results_version(tournament.pk) != before


def test_a_write_outside_the_services_announces_nothing(cup, django_capture_on_commit_callbacks):
    """No model save is watched any more: a row written directly (as only tests and migrations do) leaves the
    version alone, so every change the pages must follow goes through a service that announces."""
    before = results_version(cup["t"].pk)
    with django_capture_on_commit_callbacks(execute=True):
        Entry.objects.filter(pk=cup["entries"][8].pk).update(status=Entry.Status.WITHDRAWN)
        cup["t"].name = "Renamed Cup"
        cup["t"].save()
        cup["game"].save()
        Entry.objects.create(tournament=cup["t"], player=factories.make_player())
    assert results_version(cup["t"].pk) == before
