from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scheduling', '0004_boards_clocks_and_timed_turns'),
    ]

    operations = [
        migrations.AddField(
            model_name='table',
            name='placement_seconds',
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='timed initial placements (seconds each)'),
        ),
        migrations.AddConstraint(
            model_name='table',
            constraint=models.CheckConstraint(condition=models.Q(('turn_seconds__isnull', True), ('turn_seconds__gte', 1), _connector='OR'), name='table_turn_seconds_positive'),
        ),
        migrations.AddConstraint(
            model_name='table',
            constraint=models.CheckConstraint(condition=models.Q(('placement_seconds__isnull', True), models.Q(('placement_seconds__gte', 1), ('turn_seconds__isnull', False)), _connector='OR'), name='table_placements_timed_with_turns'),
        ),
    ]
