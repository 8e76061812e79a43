"""The database allows one counting late arrival per entry (seed 001 §6; docs/rules.md I-38, changed)."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("results", "0008_withdraw_repeated_lateness"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="penalty",
            name="penalty_lateness_once_per_game",
        ),
        migrations.AddConstraint(
            model_name="penalty",
            constraint=models.UniqueConstraint(condition=models.Q(("kind", "lateness"), ("withdrawn_at__isnull", True)),
                                               fields=("entry",), name="penalty_lateness_once_per_entry"),
        ),
    ]
