"""PrintJob moved here from the former `organize` app: the state is created, and the table adopted
where a database has it (core.adopted_tables)."""
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from core.adopted_tables import adopt_table


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('scheduling', '0006_job_status_labels'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.CreateModel(
                name='PrintJob',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('language', models.CharField(default='en', max_length=16)),
                    ('status', models.CharField(choices=[('queued', 'waiting to start'), ('running', 'running'), ('succeeded', 'done'), ('failed', 'failed')], default='queued', max_length=10, verbose_name='status')),
                    ('done', models.FloatField(default=0.0, verbose_name='share done')),
                    ('message', models.CharField(blank=True, max_length=500, verbose_name='message')),
                    ('created_at', models.DateTimeField(auto_now_add=True)),
                    ('started_at', models.DateTimeField(blank=True, null=True)),
                    ('updated_at', models.DateTimeField(auto_now=True)),
                    ('finished_at', models.DateTimeField(blank=True, null=True)),
                    ('kind', models.CharField(choices=[('record_sheets', 'record sheets'), ('table_cards', 'table cards')], max_length=16, verbose_name='document')),
                    ('paper', models.CharField(default='a4', max_length=8)),
                    ('pdf', models.BinaryField(blank=True, null=True)),
                    ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='print_jobs', to='scheduling.game')),
                    ('requested_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                ],
                options={
                    'ordering': ['-created_at'],
                    'abstract': False,
                    'indexes': [models.Index(fields=['game', 'kind', 'status'], name='print_job_game_kind_status')],
                    'constraints': [models.CheckConstraint(condition=models.Q(('done__gte', 0), ('done__lte', 1)), name='print_job_done_share'), models.CheckConstraint(condition=models.Q(('kind__in', ['record_sheets', 'table_cards'])), name='print_job_kind')],
                },
            ),
        ]),
        adopt_table('organize_printjob', 'printing', 'PrintJob'),
    ]
