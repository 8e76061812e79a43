"""The result models and the audit trail now belong to `results` and `audit`; their tables stay."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('results', '0001_initial'),
        ('audit', '0001_initial'),
        ('ranking', '0003_sheet_status_label'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='penalty',
                    name='entry',
                ),
                migrations.RemoveField(
                    model_name='penalty',
                    name='game',
                ),
                migrations.RemoveField(
                    model_name='penalty',
                    name='recorded_by',
                ),
                migrations.RemoveField(
                    model_name='penalty',
                    name='tournament',
                ),
                migrations.RemoveField(
                    model_name='recordsheet',
                    name='signed_off_by',
                ),
                migrations.RemoveField(
                    model_name='recordsheet',
                    name='table',
                ),
                migrations.RemoveField(
                    model_name='sheetrevision',
                    name='sheet',
                ),
                migrations.RemoveField(
                    model_name='signature',
                    name='sheet',
                ),
                migrations.RemoveField(
                    model_name='score',
                    name='sheet',
                ),
                migrations.RemoveField(
                    model_name='score',
                    name='seat',
                ),
                migrations.RemoveField(
                    model_name='sheetrevision',
                    name='created_by',
                ),
                migrations.RemoveField(
                    model_name='signature',
                    name='entry',
                ),
                migrations.RemoveField(
                    model_name='signature',
                    name='recorded_by',
                ),
                migrations.RemoveField(
                    model_name='tiebreakdraw',
                    name='recorded_by',
                ),
                migrations.RemoveField(
                    model_name='tiebreakdraw',
                    name='stage',
                ),
                migrations.RemoveField(
                    model_name='tiebreakdraw',
                    name='tournament',
                ),
                migrations.RemoveField(
                    model_name='tiebreakdrawplace',
                    name='draw',
                ),
                migrations.RemoveField(
                    model_name='tiebreakdrawplace',
                    name='entry',
                ),
                migrations.DeleteModel(
                    name='AuditEntry',
                ),
                migrations.DeleteModel(
                    name='Penalty',
                ),
                migrations.DeleteModel(
                    name='RecordSheet',
                ),
                migrations.DeleteModel(
                    name='Score',
                ),
                migrations.DeleteModel(
                    name='SheetRevision',
                ),
                migrations.DeleteModel(
                    name='Signature',
                ),
                migrations.DeleteModel(
                    name='TiebreakDraw',
                ),
                migrations.DeleteModel(
                    name='TiebreakDrawPlace',
                ),
            ],
            database_operations=[],
        ),
    ]
