"""CheckInWindow moved here from the former `organize` app: the state is created, and the table adopted
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
                name='CheckInWindow',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('code', models.CharField(max_length=32, unique=True)),
                    ('opened_at', models.DateTimeField(auto_now_add=True)),
                    ('closes_at', models.DateTimeField(verbose_name='closes at')),
                    ('closed_at', models.DateTimeField(blank=True, null=True, verbose_name='closed early at')),
                    ('opened_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='check_in_windows', to='championships.tournament')),
                ],
                options={
                    'ordering': ['-opened_at', '-pk'],
                },
            ),
        ]),
        adopt_table('organize_checkinwindow', 'attendance', 'CheckInWindow'),
    ]
