"""The table takes the audit app's name; entries may belong to no tournament (a player's record)."""

import django.db.models.deletion
from django.db import migrations, models


MODELS = ('auditentry',)


def _relabel(apps, old: str, new: str) -> None:
    """Admin history and permissions follow the model (unless the new label already exists)."""
    content_type = apps.get_model("contenttypes", "ContentType")
    for model in MODELS:
        if not content_type.objects.filter(app_label=new, model=model).exists():
            content_type.objects.filter(app_label=old, model=model).update(app_label=new)


def forwards(apps, schema_editor):
    _relabel(apps, "ranking", "audit")


def backwards(apps, schema_editor):
    _relabel(apps, "audit", "ranking")


def drop_entries_without_tournament(apps, schema_editor):
    """Going back: the previous schema requires a tournament, so entries that belong to none cannot stay."""
    apps.get_model("audit", "AuditEntry").objects.filter(tournament__isnull=True).delete()


class Migration(migrations.Migration):

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('audit', '0001_initial'),
        ('championships', '0001_initial'),
    ]

    operations = [
        migrations.RenameIndex(
            model_name='auditentry',
            new_name='audit_object_idx',
            old_name='ranking_aud_object__b4fe71_idx',
        ),
        migrations.AlterField(
            model_name='auditentry',
            name='tournament',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='audit_entries', to='championships.tournament'),
        ),
        migrations.RunPython(migrations.RunPython.noop, drop_entries_without_tournament),
        migrations.AlterModelTable(
            name='auditentry',
            table=None,
        ),
        migrations.RunPython(forwards, backwards),
    ]
