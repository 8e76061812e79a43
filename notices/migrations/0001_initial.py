"""StartTimeNotice, UndeliveredEmail moved here from the former `organize` app: the state is created, and the table adopted
where a database has it (core.adopted_tables)."""
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from core.adopted_tables import adopt_table


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('championships', '0019_apitoken'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.CreateModel(
                name='StartTimeNotice',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('email', models.EmailField(max_length=254, verbose_name='sent to')),
                    ('start', models.DateTimeField(verbose_name='official start announced')),
                    ('moved', models.BooleanField(default=False, verbose_name='the start had moved')),
                    ('sent_at', models.DateTimeField(auto_now_add=True, verbose_name='sent at')),
                    ('entry', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='start_time_notices', to='championships.entry')),
                ],
                options={
                    'ordering': ['-sent_at'],
                    'constraints': [models.UniqueConstraint(fields=('entry', 'start'), name='start_notice_once_per_start')],
                },
            ),
            migrations.CreateModel(
                name='UndeliveredEmail',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('to', models.EmailField(max_length=254, verbose_name='to')),
                    ('subject', models.CharField(max_length=300, verbose_name='subject')),
                    ('reason', models.CharField(max_length=500, verbose_name='why it failed')),
                    ('failed_at', models.DateTimeField(verbose_name='failed at')),
                    ('failures', models.PositiveIntegerField(default=1)),
                    ('message', models.TextField(blank=True, editable=False)),
                    ('sent_again_at', models.DateTimeField(blank=True, null=True, verbose_name='sent again at')),
                    ('championship', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='undelivered_emails', to='championships.championship')),
                    ('sent_again_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ('tournament', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='undelivered_emails', to='championships.tournament')),
                ],
                options={
                    'ordering': ['-failed_at', '-pk'],
                    'indexes': [models.Index(fields=['tournament', '-failed_at'], name='undelivered_tournament_idx'), models.Index(fields=['championship', '-failed_at'], name='undelivered_championship_idx')],
                    'constraints': [models.CheckConstraint(condition=models.Q(models.Q(('championship__isnull', True), ('tournament__isnull', False)), models.Q(('championship__isnull', False), ('tournament__isnull', True)), _connector='OR'), name='undelivered_about_one_event')],
                },
            ),
        ]),
        adopt_table('organize_starttimenotice', 'notices', 'StartTimeNotice'),
        adopt_table('organize_undeliveredemail', 'notices', 'UndeliveredEmail'),
    ]
