"""Migration results 0008: lateness recorded once per game becomes once per tournament (001 §6; docs/rules.md I-38)."""
import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from audit.models import AuditEntry
from ranking.standings import compute_standings
from results.models import Penalty
from tests.factories import make_entries, make_game, make_official, make_tournament, play

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("results", "0007_penalty_withdrawal")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_repeated_late_arrivals_are_withdrawn_and_the_first_kept():
    """001 §6: "1 victory point deducted from their total scores for the first 15 minutes of tardiness", counted from
    the official start. The trial day's player lost 1 VP at the start and 1 more for each of games 1 and 2: after
    the migration only the first report counts, the others stay on record as withdrawn, each with an audit entry."""
    tournament = make_tournament()
    entries = make_entries(tournament, 4)
    referee = make_official(tournament)
    game = make_game(tournament, [entries])
    try:
        old = migrate(BEFORE).get_model("results", "Penalty")
        late, other = entries[0], entries[1]
        for where in (None, game.pk):
            old.objects.create(tournament_id=tournament.pk, entry_id=late.pk, kind="lateness", vp=1, game_id=where,
                               reason="5 minutes late", recorded_by_id=referee.pk)
        old.objects.create(tournament_id=tournament.pk, entry_id=other.pk, kind="lateness", vp=1, game_id=game.pk,
                           reason="3 minutes late", recorded_by_id=referee.pk)
    finally:  # forward to the latest migrations, also after a failure: the next tests need that schema
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    first, repeated = Penalty.objects.filter(entry=late).order_by("pk")
    assert first.withdrawn_at is None and first.game is None
    assert repeated.withdrawn_at is not None and repeated.withdrawn_by == referee
    assert "once per tournament" in repeated.withdrawal_reason
    assert Penalty.objects.get(entry=other).withdrawn_at is None  # one late arrival: nothing to withdraw
    audit = AuditEntry.objects.get(action="penalty.withdrawn")
    assert audit.object_id == repeated.pk and audit.after["withdrawn_kind"] == "lateness"
    play(game.tables.get(), [10, 7, 6, 5], referee)
    rows = {row["entry"]: row for row in compute_standings(tournament)}
    assert rows[late.pk]["total_vp"] == 10 - 1 and rows[other.pk]["total_vp"] == 7 - 1
