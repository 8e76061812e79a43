"""The audit trail moves here from `ranking`: state only, the table is renamed by 0002."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('ranking', '0003_sheet_status_label'),
        ('championships', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='AuditEntry',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('at', models.DateTimeField(auto_now_add=True)),
                        ('action', models.CharField(max_length=40, verbose_name='action')),
                        ('object_type', models.CharField(max_length=40)),
                        ('object_id', models.PositiveBigIntegerField()),
                        ('before', models.JSONField(blank=True, null=True)),
                        ('after', models.JSONField(blank=True, null=True)),
                        ('reason', models.TextField(blank=True)),
                        ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='audit_entries', to='championships.tournament')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'verbose_name_plural': 'audit entries',
                        'db_table': 'ranking_auditentry',
                        'ordering': ['-at', '-id'],
                        'indexes': [models.Index(fields=['object_type', 'object_id'], name='ranking_aud_object__b4fe71_idx')],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
