"""A late arrival counts once per tournament (seed 001 §6; docs/rules.md I-38, changed): repeated reports withdrawn.

Until now lateness could be recorded once per player and game, so one player could lose 1 VP at the
start and again for each game. For each entry the earliest late arrival still counting is kept (001 §6
ties lateness to the tournament's official start: the first report is the one of the start) and every
later one is withdrawn: kept on record and in the activity log, no longer counted, with the reason below.
A migration acts for no one, so the withdrawal is attributed to whoever recorded the penalty. The next
migration then lets the database allow one counting late arrival per entry (a separate transaction:
PostgreSQL builds no index on a table with updates still to check).
"""
from django.db import migrations
from django.utils import timezone

REASON = ("A late arrival counts once per tournament (seed 001 §6; docs/rules.md I-38): this later report of the "
          "same player no longer counts.")


def withdraw_repeated_lateness(apps, schema_editor):
    Penalty = apps.get_model("results", "Penalty")
    AuditEntry = apps.get_model("audit", "AuditEntry")
    now = timezone.now()
    kept = set()
    for penalty in (Penalty.objects.filter(kind="lateness", withdrawn_at__isnull=True)
                    .select_related("entry__player", "game").order_by("recorded_at", "pk")):
        if penalty.entry_id not in kept:
            kept.add(penalty.entry_id)
            continue
        penalty.withdrawn_at, penalty.withdrawn_by_id, penalty.withdrawal_reason = now, penalty.recorded_by_id, REASON
        penalty.save(update_fields=["withdrawn_at", "withdrawn_by", "withdrawal_reason"])
        AuditEntry.objects.create(
            tournament_id=penalty.tournament_id, user_id=penalty.recorded_by_id, action="penalty.withdrawn",
            object_type="penalty", object_id=penalty.pk, before={"withdrawn": False}, reason=REASON,
            after={"entry": penalty.entry_id, "player": penalty.entry.player.name, "kind": "lateness",
                   "vp": penalty.vp, "game": penalty.game.number if penalty.game else None, "reason": penalty.reason,
                   "withdrawn": True, "withdrawn_kind": "lateness"})


class Migration(migrations.Migration):

    dependencies = [
        ("audit", "0002_table_renamed_tournament_optional"),
        ("results", "0007_penalty_withdrawal"),
    ]

    operations = [
        migrations.RunPython(withdraw_repeated_lateness, migrations.RunPython.noop),
    ]
