"""Publishing now opens every table's record sheet; games published before that get theirs here."""
from django.db import migrations


def open_missing_sheets(apps, schema_editor):
    table_model = apps.get_model("scheduling", "Table")
    sheet_model = apps.get_model("results", "RecordSheet")
    score_model = apps.get_model("results", "Score")
    for table in table_model.objects.exclude(game__status="planned").filter(sheet__isnull=True):
        sheet = sheet_model.objects.create(table=table)
        score_model.objects.bulk_create(score_model(sheet=sheet, seat=seat) for seat in table.seats.all())


class Migration(migrations.Migration):

    dependencies = [
        ("results", "0002_tables_renamed"),
    ]

    operations = [
        migrations.RunPython(open_missing_sheets, migrations.RunPython.noop),
    ]
