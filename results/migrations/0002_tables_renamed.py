"""The tables take the results app's names; admin history and permissions follow the models."""

from django.db import migrations


MODELS = ('penalty', 'recordsheet', 'score', 'sheetrevision', 'signature', 'tiebreakdraw', 'tiebreakdrawplace')


def _relabel(apps, old: str, new: str) -> None:
    """Admin history and permissions follow the models (unless the new label already exists)."""
    content_type = apps.get_model("contenttypes", "ContentType")
    for model in MODELS:
        if not content_type.objects.filter(app_label=new, model=model).exists():
            content_type.objects.filter(app_label=old, model=model).update(app_label=new)


def forwards(apps, schema_editor):
    _relabel(apps, "ranking", "results")


def backwards(apps, schema_editor):
    _relabel(apps, "results", "ranking")


class Migration(migrations.Migration):

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('results', '0001_initial'),
    ]

    operations = [
        migrations.AlterModelTable(
            name='penalty',
            table=None,
        ),
        migrations.AlterModelTable(
            name='recordsheet',
            table=None,
        ),
        migrations.AlterModelTable(
            name='score',
            table=None,
        ),
        migrations.AlterModelTable(
            name='sheetrevision',
            table=None,
        ),
        migrations.AlterModelTable(
            name='signature',
            table=None,
        ),
        migrations.AlterModelTable(
            name='tiebreakdraw',
            table=None,
        ),
        migrations.AlterModelTable(
            name='tiebreakdrawplace',
            table=None,
        ),
        migrations.RunPython(forwards, backwards),
    ]
