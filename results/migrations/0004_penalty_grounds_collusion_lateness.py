"""Penalties by the rules: a disqualification's ground, collusion incidents and rulings, lateness worth 1 VP.

Seeds 001 §6 and 004 §1.2.4, §1.2.5, §3.0.13. Disqualifications recorded before this migration
did not say why; they are marked "code of conduct", the ground that may be given at any time, so
no recorded disqualification becomes invalid. A late-arrival penalty recorded with other than 1 VP,
or a second one for the same player and game, becomes a VP deduction of the same size, so the
standings do not move.
"""
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def mark_earlier_disqualifications(apps, schema_editor):
    Penalty = apps.get_model("results", "Penalty")
    Penalty.objects.filter(kind="disqualification", ground="").update(ground="conduct")


def keep_one_lateness_of_one_vp(apps, schema_editor):
    Penalty = apps.get_model("results", "Penalty")
    seen = set()
    for penalty in Penalty.objects.filter(kind="lateness").order_by("recorded_at", "pk"):
        key = (penalty.entry_id, penalty.game_id)
        if penalty.vp != 1 or (penalty.game_id is not None and key in seen):
            penalty.kind = "vp_deduction"
            penalty.save(update_fields=["kind"])
        else:
            seen.add(key)


class Migration(migrations.Migration):

    dependencies = [
        ('championships', '0001_initial'),
        ('results', '0003_open_sheets_of_published_games'),
        ('scheduling', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='CollusionRuling',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('reason', models.TextField(verbose_name='reason')),
                ('decided_at', models.DateTimeField(auto_now_add=True)),
            ],
            options={
                'ordering': ['decided_at'],
            },
        ),
        migrations.AddField(
            model_name='penalty',
            name='ground',
            field=models.CharField(blank=True, choices=[('rules', "breaking the game's rules"), ('conduct', 'breaching the code of conduct')], help_text="Disqualifications only: breaking the game's rules, or the code of conduct.", max_length=7, verbose_name='ground for disqualification'),
        ),
        migrations.AddField(
            model_name='penalty',
            name='incident',
            field=models.UUIDField(blank=True, editable=False, help_text='Collusion warnings only: shared by the warnings of the two players of one incident.', null=True),
        ),
        migrations.RunPython(mark_earlier_disqualifications, migrations.RunPython.noop),
        migrations.RunPython(keep_one_lateness_of_one_vp, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='penalty',
            name='kind',
            field=models.CharField(choices=[('lateness', 'late arrival'), ('warning', 'warning'), ('collusion', 'collusion warning'), ('vp_deduction', 'VP deduction'), ('disqualification', 'disqualification')], max_length=16, verbose_name='kind'),
        ),
        migrations.AddConstraint(
            model_name='penalty',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('kind', 'lateness'), _negated=True), ('vp', 1), _connector='OR'), name='penalty_lateness_one_vp'),
        ),
        migrations.AddConstraint(
            model_name='penalty',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('ground__in', ['rules', 'conduct']), ('kind', 'disqualification')), models.Q(models.Q(('kind', 'disqualification'), _negated=True), ('ground', '')), _connector='OR'), name='penalty_ground_iff_disqualification'),
        ),
        migrations.AddConstraint(
            model_name='penalty',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('incident__isnull', False), ('kind', 'collusion')), models.Q(models.Q(('kind', 'collusion'), _negated=True), ('incident__isnull', True)), _connector='OR'), name='penalty_incident_iff_collusion'),
        ),
        migrations.AddConstraint(
            model_name='penalty',
            constraint=models.UniqueConstraint(fields=('incident', 'entry'), name='penalty_incident_player_once'),
        ),
        migrations.AddConstraint(
            model_name='penalty',
            constraint=models.UniqueConstraint(condition=models.Q(('kind', 'lateness')), fields=('entry', 'game'), name='penalty_lateness_once_per_game'),
        ),
        migrations.AddField(
            model_name='collusionruling',
            name='decided_by',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='collusionruling',
            name='disqualification',
            field=models.OneToOneField(blank=True, help_text='Empty when the referee decided not to disqualify.', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='results.penalty'),
        ),
        migrations.AddField(
            model_name='collusionruling',
            name='warning',
            field=models.OneToOneField(help_text='The repeated collusion warning that called for the decision.', on_delete=django.db.models.deletion.PROTECT, related_name='ruling', to='results.penalty'),
        ),
        migrations.AddConstraint(
            model_name='collusionruling',
            constraint=models.CheckConstraint(condition=models.Q(('reason', ''), _negated=True), name='collusion_ruling_has_reason'),
        ),
    ]
