"""The result models move here from `ranking`: state only, the tables are renamed by 0002."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('ranking', '0003_sheet_status_label'),
        ('championships', '0001_initial'),
        ('scheduling', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='RecordSheet',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('status', models.CharField(choices=[('draft', 'not started'), ('signing', 'awaiting signatures'), ('signed', 'signed by all players'), ('signed_off', 'signed off')], default='draft', max_length=10, verbose_name='status')),
                        ('start_time', models.TimeField(blank=True, null=True, verbose_name='start time')),
                        ('end_time', models.TimeField(blank=True, null=True, verbose_name='end time')),
                        ('version', models.PositiveIntegerField(default=0, help_text='The current revision number.', verbose_name='version')),
                        ('signed_off_at', models.DateTimeField(blank=True, null=True)),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                        ('signed_off_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('table', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='sheet', to='scheduling.table')),
                    ],
                    options={
                        'db_table': 'ranking_recordsheet',
                    },
                ),
                migrations.CreateModel(
                    name='Score',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('vp', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='victory points')),
                        ('winner', models.BooleanField(default=False, verbose_name='winner')),
                        ('seat', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='score', to='scheduling.seat')),
                        ('sheet', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='scores', to='results.recordsheet')),
                    ],
                    options={
                        'db_table': 'ranking_score',
                        'ordering': ['seat__position'],
                    },
                ),
                migrations.CreateModel(
                    name='SheetRevision',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('number', models.PositiveIntegerField(verbose_name='version')),
                        ('kind', models.CharField(choices=[('entered', 'entered'), ('corrected', 'corrected after sign-off'), ('signed_off', 'signed off')], max_length=10, verbose_name='kind')),
                        ('data', models.JSONField(verbose_name='scores, winner and times')),
                        ('reason', models.TextField(blank=True, verbose_name='reason')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('created_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('sheet', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='revisions', to='results.recordsheet')),
                    ],
                    options={
                        'db_table': 'ranking_sheetrevision',
                        'ordering': ['sheet', 'number'],
                    },
                ),
                migrations.CreateModel(
                    name='Signature',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('method', models.CharField(choices=[('drawn', 'drawn signature'), ('tap', 'confirmed by tap'), ('overruled', 'refused; overruled by the referee')], max_length=10, verbose_name='method')),
                        ('image', models.TextField(blank=True, verbose_name='drawn signature (SVG path)')),
                        ('decision', models.TextField(blank=True, verbose_name="referee's decision")),
                        ('signed_at', models.DateTimeField(verbose_name='signed at')),
                        ('sheet_version', models.PositiveIntegerField(verbose_name='sheet version signed')),
                        ('entry', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='signatures', to='championships.entry')),
                        ('recorded_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('sheet', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='signatures', to='results.recordsheet')),
                    ],
                    options={
                        'db_table': 'ranking_signature',
                        'ordering': ['signed_at'],
                    },
                ),
                migrations.CreateModel(
                    name='TiebreakDraw',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('method', models.CharField(choices=[('cards', 'development card draw'), ('lots', 'drawing of lots')], max_length=5, verbose_name='method')),
                        ('note', models.TextField(blank=True, verbose_name='note')),
                        ('recorded_at', models.DateTimeField(auto_now_add=True)),
                        ('recorded_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('stage', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='tiebreak_draws', to='championships.stage')),
                        ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tiebreak_draws', to='championships.tournament')),
                    ],
                    options={
                        'db_table': 'ranking_tiebreakdraw',
                        'ordering': ['recorded_at'],
                    },
                ),
                migrations.CreateModel(
                    name='TiebreakDrawPlace',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('place', models.PositiveSmallIntegerField(verbose_name='place in the draw')),
                        ('draw', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='places', to='results.tiebreakdraw')),
                        ('entry', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='championships.entry')),
                    ],
                    options={
                        'db_table': 'ranking_tiebreakdrawplace',
                        'ordering': ['draw', 'place'],
                    },
                ),
                migrations.CreateModel(
                    name='Penalty',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('lateness', 'late arrival'), ('warning', 'warning'), ('vp_deduction', 'VP deduction'), ('disqualification', 'disqualification')], max_length=16, verbose_name='kind')),
                        ('vp', models.PositiveSmallIntegerField(default=0, verbose_name='VP deducted')),
                        ('reason', models.TextField(verbose_name='reason')),
                        ('recorded_at', models.DateTimeField(auto_now_add=True)),
                        ('request_key', models.UUIDField(blank=True, editable=False, help_text='Identifies the form submission, so a resubmitted form records the penalty once.', null=True, unique=True)),
                        ('entry', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='penalties', to='championships.entry')),
                        ('game', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='penalties', to='scheduling.game')),
                        ('recorded_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='penalties', to='championships.tournament')),
                    ],
                    options={
                        'verbose_name_plural': 'penalties',
                        'db_table': 'ranking_penalty',
                        'ordering': ['recorded_at'],
                        'constraints': [models.CheckConstraint(condition=models.Q(('kind__in', ['lateness', 'vp_deduction']), ('vp', 0), _connector='OR'), name='penalty_vp_only_for_deductions'), models.CheckConstraint(condition=models.Q(models.Q(('kind', 'vp_deduction'), _negated=True), ('vp__gte', 1), _connector='OR'), name='penalty_deduction_positive'), models.CheckConstraint(condition=models.Q(('reason', ''), _negated=True), name='penalty_has_reason')],
                    },
                ),
                migrations.AddConstraint(
                    model_name='recordsheet',
                    constraint=models.CheckConstraint(condition=models.Q(models.Q(('status', 'signed_off'), _negated=True), models.Q(('signed_off_at__isnull', False), ('signed_off_by__isnull', False)), _connector='OR'), name='sheet_sign_off_recorded'),
                ),
                migrations.AddConstraint(
                    model_name='score',
                    constraint=models.CheckConstraint(condition=models.Q(('vp__isnull', True), ('vp__lte', 12), _connector='OR'), name='score_vp_range'),
                ),
                migrations.AddConstraint(
                    model_name='score',
                    constraint=models.CheckConstraint(condition=models.Q(models.Q(('winner', True), _negated=True), ('vp__gte', 10), _connector='OR'), name='score_winner_has_ten'),
                ),
                migrations.AddConstraint(
                    model_name='score',
                    constraint=models.UniqueConstraint(condition=models.Q(('winner', True)), fields=('sheet',), name='score_one_winner_per_sheet'),
                ),
                migrations.AddConstraint(
                    model_name='sheetrevision',
                    constraint=models.UniqueConstraint(fields=('sheet', 'number'), name='revision_number_unique'),
                ),
                migrations.AddConstraint(
                    model_name='sheetrevision',
                    constraint=models.CheckConstraint(condition=models.Q(models.Q(('kind', 'corrected'), _negated=True), models.Q(('reason', ''), _negated=True), _connector='OR'), name='revision_correction_has_reason'),
                ),
                migrations.AddConstraint(
                    model_name='signature',
                    constraint=models.UniqueConstraint(fields=('sheet', 'entry'), name='signature_once_per_player'),
                ),
                migrations.AddConstraint(
                    model_name='signature',
                    constraint=models.CheckConstraint(condition=models.Q(models.Q(('method', 'overruled'), _negated=True), models.Q(('decision', ''), _negated=True), _connector='OR'), name='signature_overrule_has_decision'),
                ),
                migrations.AddConstraint(
                    model_name='tiebreakdrawplace',
                    constraint=models.UniqueConstraint(fields=('draw', 'place'), name='draw_place_unique'),
                ),
                migrations.AddConstraint(
                    model_name='tiebreakdrawplace',
                    constraint=models.UniqueConstraint(fields=('draw', 'entry'), name='draw_entry_unique'),
                ),
                migrations.AddConstraint(
                    model_name='tiebreakdrawplace',
                    constraint=models.CheckConstraint(condition=models.Q(('place__gte', 1)), name='draw_place_positive'),
                ),
            ],
            database_operations=[],
        ),
    ]
