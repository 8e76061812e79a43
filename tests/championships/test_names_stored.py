"""Names as the models store them (issue 22, item 8): `core.text.NameField` cleans in every model form (the
admin's) and in `full_clean` (imports), and the database's check constraints refuse a control or invisible
character whatever path a row takes in; names stored before are cleaned by the migration. The cleaning itself,
in forms, lists and email subjects: tests/test_text_cleaning.py.
"""
import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.forms import modelform_factory

from championships.models import Championship, Player, Stage, Tournament
from tests.factories import make_championship, make_player, make_tournament
from tests.test_text_cleaning import LRM, NBSP, RLO, ZWNJ, ZWSP

pytestmark = pytest.mark.django_db


def test_the_admins_form_stores_a_name_cleaned():
    form = modelform_factory(Player, fields=["name"])({"name": f"{RLO}Ann{ZWSP} Lee"})
    assert form.is_valid() and form.cleaned_data["name"] == "Ann Lee"
    refused = modelform_factory(Tournament, fields=["name"])({"name": "Dubai\r\nOpen"})
    assert not refused.is_valid() and "one line" in str(refused.errors["name"])


def test_full_clean_cleans_every_name_field():
    tournament = make_tournament(name="Dubai Open")
    tournament.name, tournament.city, tournament.venue = f"Dubai{ZWSP} Open", f"{LRM}Dubai", f"Hall{NBSP}A{RLO}"
    tournament.full_clean()
    assert (tournament.name, tournament.city, tournament.venue) == ("Dubai Open", "Dubai", "Hall A")
    tournament.name = "Dubai\nOpen"
    with pytest.raises(ValidationError):
        tournament.full_clean()


@pytest.mark.parametrize("hidden", ["\r\n", "\n", "\x07", RLO, ZWSP, LRM, "\u2028"])
def test_the_database_refuses_a_hidden_character_in_any_name(hidden):
    championship = make_championship()
    tournament = make_tournament(championship=championship)
    writes = [
        lambda: Tournament.objects.filter(pk=tournament.pk).update(name=f"Dubai{hidden}Open"),
        lambda: Tournament.objects.filter(pk=tournament.pk).update(city=f"Dubai{hidden}"),
        lambda: Tournament.objects.filter(pk=tournament.pk).update(venue=f"Hall{hidden}A"),
        lambda: Championship.objects.filter(pk=championship.pk).update(name=f"UAE{hidden}2030"),
        lambda: Stage.objects.filter(tournament=tournament).update(name=f"Final{hidden}"),
        lambda: make_player(f"Ann{hidden}Lee"),
    ]
    for write in writes:
        with pytest.raises(IntegrityError), transaction.atomic():
            write()


def test_the_database_keeps_a_persian_non_joiner():
    assert make_player(f"فرزانه{ZWNJ}پور").name == f"فرزانه{ZWNJ}پور"


@pytest.mark.django_db(transaction=True)
def test_the_migration_cleans_names_stored_before():
    """A deployment whose tournament already had a line break in its name: the notices failed until then."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    def migrate(targets):
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(targets)
        return executor.loader.project_state(targets).apps

    graph = MigrationExecutor(connection).loader.graph
    (mine,) = [key for key in graph.nodes if key[0] == "championships" and key[1].endswith("_names_one_visible_line")]
    (before,) = [parent for parent in graph.node_map[mine].parents if parent.key[0] == "championships"]
    tournament = make_tournament(name="Dubai Open")
    player = make_player("Ann Lee")
    try:
        old = migrate([before.key])
        old.get_model("championships", "Tournament").objects.filter(pk=tournament.pk).update(
            name="Dubai\r\nOpen", venue=f"Hall{RLO} A")
        old.get_model("championships", "Player").objects.filter(pk=player.pk).update(name=f"Ann{ZWSP} Lee\t")
    finally:  # forward to the latest migrations, also after a failure: the next tests need that schema
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    tournament.refresh_from_db()
    player.refresh_from_db()
    assert (tournament.name, tournament.venue, player.name) == ("Dubai Open", "Hall A", "Ann Lee")
