"""ApiToken moved here from the former `organize` app: the state is created, and the table adopted
where a database has it (core.adopted_tables)."""
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from core.adopted_tables import adopt_table


class Migration(migrations.Migration):

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('championships', '0018_tournament_embed_origins'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.CreateModel(
                name='ApiToken',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('name', models.CharField(help_text="What it is for, e.g. the federation's website.", max_length=100, verbose_name='name')),
                    ('digest', models.CharField(max_length=64, unique=True)),
                    ('hint', models.CharField(help_text="The token's first characters, to tell tokens apart.", max_length=8)),
                    ('created_at', models.DateTimeField(auto_now_add=True)),
                    ('revoked_at', models.DateTimeField(blank=True, null=True)),
                    ('championship', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='api_tokens', to='championships.championship')),
                    ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='api_tokens', to=settings.AUTH_USER_MODEL)),
                ],
                options={
                    'ordering': ['-created_at', '-pk'],
                    'constraints': [models.CheckConstraint(condition=models.Q(('name', ''), _negated=True), name='api_token_named')],
                },
            ),
        ]),
        adopt_table('organize_apitoken', 'championships', 'ApiToken'),
    ]
