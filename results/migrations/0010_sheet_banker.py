"""Who banked at a table: a player or the referee, recorded on its sheet (seeds 001 §7c, 004 §2.0.4)."""
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('championships', '0004_boards_per_table_and_board_limits'),
        ('results', '0009_lateness_once_per_tournament'),
    ]

    operations = [
        migrations.AddField(
            model_name='recordsheet',
            name='banker',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='championships.entry', verbose_name='banker'),
        ),
        migrations.AddField(
            model_name='recordsheet',
            name='referee_banked',
            field=models.BooleanField(default=False, verbose_name='the referee banked'),
        ),
        migrations.AddConstraint(
            model_name='recordsheet',
            constraint=models.CheckConstraint(condition=models.Q(('referee_banked', False), ('banker__isnull', True), _connector='OR'), name='sheet_one_banker'),
        ),
    ]
