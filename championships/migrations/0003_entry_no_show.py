from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('championships', '0002_slugs_rulesets_and_preset'),
    ]

    operations = [
        migrations.AlterField(
            model_name='entry',
            name='status',
            field=models.CharField(choices=[('registered', 'registered'), ('checked_in', 'checked in'), ('not_admitted', 'not admitted'), ('withdrawn', 'withdrawn'), ('no_show', 'did not come'), ('disqualified', 'disqualified')], default='registered', max_length=12, verbose_name='status'),
        ),
    ]
