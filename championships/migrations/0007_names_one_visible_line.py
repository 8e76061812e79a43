"""Names are one visible line (issue 22): NameField (cleaned in forms and full_clean), existing names cleaned,
then check constraints that refuse control and invisible characters (`core.text.FORBIDDEN_PATTERN`)."""
import core.text
from django.db import migrations, models

FORBIDDEN = (
    "[\x01-\x1f\x7f-\x9f\u2028\u2029\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b\u200e\u200f"
    "\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)
"""core.text.FORBIDDEN_PATTERN as it was when the constraints were added."""

FIELDS = [("country", "name"), ("player", "name"), ("championship", "name"), ("tournament", "name"),
          ("tournament", "city"), ("tournament", "venue"), ("stage", "name")]


def clean_existing_names(apps, schema_editor):
    """A name stored with a line break or an invisible character is rewritten as one visible line."""
    for model_name, field in FIELDS:
        model = apps.get_model("championships", model_name)
        for pk, value in model.objects.filter(**{f"{field}__regex": FORBIDDEN}).values_list("pk", field):
            cleaned = core.text.one_line(value)
            if not cleaned and field == "name":
                cleaned = f"#{pk}"
            model.objects.filter(pk=pk).update(**{field: cleaned})
    if schema_editor.connection.vendor == "postgresql":  # fire the deferred foreign-key checks of those updates
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # now: the constraints below alter the tables


def visible(field: str, name: str) -> models.CheckConstraint:
    return models.CheckConstraint(condition=~models.Q(**{f"{field}__regex": FORBIDDEN}), name=name)


class Migration(migrations.Migration):

    dependencies = [
        ("championships", "0006_tournaments_in_date_order"),
    ]

    operations = [
        migrations.AlterField(model_name="country", name="name",
                              field=core.text.NameField(max_length=100, verbose_name="name")),
        migrations.AlterField(model_name="player", name="name",
                              field=core.text.NameField(max_length=200, verbose_name="name")),
        migrations.AlterField(model_name="championship", name="name",
                              field=core.text.NameField(max_length=200, verbose_name="name")),
        migrations.AlterField(model_name="tournament", name="name",
                              field=core.text.NameField(max_length=200, verbose_name="name")),
        migrations.AlterField(model_name="tournament", name="city",
                              field=core.text.NameField(blank=True, max_length=100, verbose_name="city")),
        migrations.AlterField(model_name="tournament", name="venue",
                              field=core.text.NameField(blank=True, max_length=200, verbose_name="venue")),
        migrations.AlterField(model_name="stage", name="name",
                              field=core.text.NameField(max_length=100, verbose_name="name")),
        migrations.RunPython(clean_existing_names, migrations.RunPython.noop),
        migrations.AddConstraint(model_name="country", constraint=visible("name", "country_name_visible")),
        migrations.AddConstraint(model_name="player", constraint=visible("name", "player_name_visible")),
        migrations.AddConstraint(model_name="championship", constraint=visible("name", "championship_name_visible")),
        migrations.AddConstraint(model_name="tournament", constraint=visible("name", "tournament_name_visible")),
        migrations.AddConstraint(model_name="tournament", constraint=visible("city", "tournament_city_visible")),
        migrations.AddConstraint(model_name="tournament", constraint=visible("venue", "tournament_venue_visible")),
        migrations.AddConstraint(model_name="stage", constraint=visible("name", "stage_name_visible")),
    ]
