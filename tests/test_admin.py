"""The Django admin: every model has a working list and form, and results stay locked there too."""
import pytest
from django.contrib import admin
from django.urls import reverse

from results.models import RecordSheet
from tests.factories import make_entries, make_game, make_official, make_tournament, make_user, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser_client(client):
    user = make_user("root-admin", is_staff=True, is_superuser=True)
    client.force_login(user)
    return client


def project_models():
    return [m for m in admin.site._registry if m._meta.app_label in {"audit", "championships", "scheduling", "results"}]


def test_every_model_is_registered():
    from django.apps import apps

    apps_with_models = ("audit", "championships", "scheduling", "results")
    ours = {m for app in apps_with_models for m in apps.get_app_config(app).get_models()}
    assert ours == set(project_models())


@pytest.mark.parametrize("model", project_models(), ids=lambda m: m._meta.label)
def test_changelist_and_search_render(superuser_client, model):
    tournament = make_tournament()
    make_game(tournament, [make_entries(tournament, 4)])
    url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
    assert superuser_client.get(url).status_code == 200
    assert superuser_client.get(url, {"q": "x"}).status_code == 200


def locked_table():
    tournament = make_tournament()
    table = make_game(tournament, [make_entries(tournament, 4)]).tables.get()
    play(table, [10, 7, 6, 5], make_official(tournament))
    return table


def test_results_are_read_only_in_the_admin(superuser_client):
    table = locked_table()
    sheet = RecordSheet.objects.get(table=table)
    url = reverse("admin:results_recordsheet_change", args=[sheet.pk])
    page = superuser_client.get(url).content.decode()
    assert 'name="_save"' not in page and "10" in page
    response = superuser_client.post(url, {"status": "draft"})
    assert response.status_code == 403
    sheet.refresh_from_db()
    assert sheet.is_locked


def test_seats_of_a_locked_table_cannot_be_changed_in_the_admin(superuser_client):
    table = locked_table()
    seat = table.seats.first()
    response = superuser_client.post(reverse("admin:scheduling_seat_change", args=[seat.pk]),
                                     {"table": table.pk, "game": table.game_id, "entry": seat.entry_id, "position": 4})
    assert response.status_code == 403
    seat.refresh_from_db()
    assert seat.position == 1
    delete = reverse("admin:scheduling_seat_delete", args=[seat.pk])
    assert superuser_client.post(delete, {"post": "yes"}).status_code == 403


def test_an_underage_entry_is_refused_with_a_message_not_an_error_page(superuser_client):
    from datetime import date

    from tests.factories import make_player

    tournament = make_tournament()
    young = make_player("Young One", born=date(2010, 1, 1))
    response = superuser_client.post(reverse("admin:championships_entry_add"), {
        "tournament": tournament.pk, "player": young.pk, "status": "registered", "minutes_late": 0,
    })
    assert response.status_code == 200
    assert "Young One is under 18 on the cut-off date" in response.content.decode()
    assert not tournament.entries.exists()


def test_a_players_record_changed_in_the_admin_is_logged_in_every_tournament_they_play(superuser_client):
    """Issue 22 item 1: a change to a shared player shows in each tournament's activity log."""
    from audit.models import AuditEntry
    from championships.models import Entry

    first, second = make_tournament(), make_tournament()
    (entry,) = make_entries(first, 1)
    Entry.objects.create(tournament=second, player=entry.player)
    player = entry.player
    response = superuser_client.post(reverse("admin:championships_player_change", args=[player.pk]), {
        "name": "Renamed", "email": "", "date_of_birth": "1990-01-01", "country": player.country_id})
    assert response.status_code == 302
    assert set(AuditEntry.objects.filter(action="admin.changed", object_id=player.pk)
               .values_list("tournament_id", flat=True)) == {first.pk, second.pk}


def test_the_players_private_links_show_no_digest_in_the_admin(superuser_client):
    """Issue 25's rows are read-only there, and the digests of a player's link and confirmation never show."""
    from championships.models import PlayerLink, Registration
    from tests.factories import make_player

    tournament, player = make_tournament(), make_player("Link Holder")
    link = PlayerLink.objects.create(player=player, digest="a" * 64)
    registration = Registration.objects.create(tournament=tournament, name="Rania Khoury", email="r@example.com",
                                               confirm_digest="b" * 64)
    for url, digest in ((reverse("admin:championships_playerlink_change", args=[link.pk]), "a" * 64),
                        (reverse("admin:championships_registration_change", args=[registration.pk]), "b" * 64)):
        page = superuser_client.get(url).content.decode()
        assert digest not in page and 'name="_save"' not in page
    assert "Rania Khoury" in page
