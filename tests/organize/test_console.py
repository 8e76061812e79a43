"""The organizer's console: dashboard with next steps, a tournament's page, a new championship, staff (issue 11)."""
import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core import mail
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import resolve, reverse

from championships.models import Championship, StaffRole, Tournament
from championships.presets import PRESETS
from championships.services import create_championship_from_preset
from results.publishing import publish_game
from scheduling.models import Game
from scheduling.services import generate_seating
from tests.factories import make_admin, make_entries, make_game, make_official, make_tournament, make_user, play
from web.organize.dashboard import dashboard

pytestmark = pytest.mark.django_db


def creator():
    user = make_user()
    user.user_permissions.add(Permission.objects.get(codename="add_championship"))
    return user


def steps_of(user, tournament) -> list[str]:
    for card in dashboard(user):
        for item in card.tournaments:
            if item.tournament.pk == tournament.pk:
                return [step.text for step in item.steps]
    raise AssertionError("tournament not listed")


def test_the_dashboard_lists_only_what_the_user_organizes_with_the_next_step(client):
    tournament = make_tournament(games=1)
    organizer = make_official(tournament, "organizer")
    other = make_tournament(name="Someone else's")
    assert steps_of(organizer, tournament) == ["Add players", "Appoint a referee"]
    make_entries(tournament, 8)
    referee = make_official(tournament, "referee")
    assert steps_of(organizer, tournament) == ["Generate the seating for Qualifier"]
    generate_seating(tournament.stages.get().pk, user=organizer, seed=1)
    assert steps_of(organizer, tournament) == ["Publish game 1"]
    game = Game.objects.get(tournament=tournament)
    publish_game(game.pk, user=organizer)
    assert steps_of(organizer, tournament) == ["2 tables missing results in game 1"]
    for table in game.tables.all():
        play(table, [10, 7, 5, 3], referee)
    assert steps_of(organizer, tournament) == ["Finished: nothing left to do"]  # it finished by itself
    client.force_login(organizer)
    page = client.get(reverse("organize-home")).content.decode()
    assert tournament.name in page and other.name not in page
    assert other.pk in [i.tournament.pk for card in dashboard(make_admin()) for i in card.tournaments]


def test_a_finished_qualifier_asks_to_send_its_qualifiers():
    championship = create_championship_from_preset("ksa-2022", user=make_admin())
    qualifier = championship.tournaments.filter(kind="qualifier").first()
    Tournament.objects.filter(pk=qualifier.pk).update(status="finished")
    assert steps_of(make_admin(), qualifier) == ["Send the top 2 players to the finals"]


def test_the_dashboard_reads_in_a_fixed_number_of_queries():
    admin = make_admin()
    make_tournament()
    with CaptureQueriesContext(connection) as one:
        dashboard(admin)
    for _ in range(4):
        make_entries(make_tournament(), 3)
    with CaptureQueriesContext(connection) as five:
        dashboard(admin)
    assert len(five) == len(one)


def test_the_tournament_console_links_everything_and_announces_the_champion(client):
    tournament = make_tournament(games=1, kind="finals")
    make_entries(tournament, 4)
    organizer = make_official(tournament, "organizer")
    referee = make_official(tournament, "referee")
    client.force_login(organizer)
    url = reverse("organize-tournament", args=[tournament.slug])
    page = client.get(url).content.decode()
    for name in ("seating-overview", "qualification", "activity-log", "referee-desk", "organize-staff"):
        assert reverse(name, args=[tournament.slug]) in page
    assert 'id="podium"' not in page
    generate_seating(tournament.stages.get().pk, user=organizer, seed=1)
    game = Game.objects.get(tournament=tournament)
    publish_game(game.pk, user=organizer)
    play(game.tables.get(), [7, 10, 5, 3], referee)
    page = client.get(url).content.decode()
    winner = game.tables.get().seats.get(position=2).entry.player.name  # 10 VP
    assert 'id="podium"' in page and f"Champion: <bdi>{winner}</bdi>" in page
    assert client.get(url, follow=False).status_code == 200
    client.force_login(referee)
    assert client.get(url).status_code == 403


def test_closing_and_reopening_from_the_console(client):
    tournament = make_tournament()
    client.force_login(make_official(tournament, "organizer"))
    url = reverse("organize-status", args=[tournament.slug])
    client.post(url, {"action": "close", "reason": ""})
    assert Tournament.objects.get(pk=tournament.pk).status == "draft"
    client.post(url, {"action": "close", "reason": "Storm"})
    assert Tournament.objects.get(pk=tournament.pk).status == "finished"
    client.post(url, {"action": "reopen", "reason": "Storm passed"})
    assert Tournament.objects.get(pk=tournament.pk).status == "registration"
    log = client.get(reverse("activity-log", args=[tournament.slug]), {"kind": "tournament"}).content.decode()
    assert "Tournament closed by hand" in log and "Tournament reopened: registration open" in log
    assert "Storm passed" in log


def test_new_resolves_before_the_slug_patterns_and_no_tournament_may_be_called_new():
    assert resolve("/organize/new/").url_name == "organize-new"
    assert resolve("/organize/championships/x/").url_name == "organize-championship"
    tournament = make_tournament()
    tournament.slug = "new"
    with pytest.raises(ValidationError):
        tournament.full_clean()


def test_step_one_shows_every_preset_with_what_it_creates(client):
    client.force_login(creator())
    page = client.get(reverse("organize-new")).content.decode()
    for key, preset in PRESETS.items():
        assert f'value="{key}"' in page and str(preset.title) in page
    assert "Abu Dhabi qualifier" in page and "top 8 advance to the finals" in page and 'value="custom"' in page
    assert not Championship.objects.exists()


def _adjust_form(client, key: str, year: int, tournaments: int = 1) -> dict:
    """The step-2 form's fields as a browser would send them (initial values)."""
    response = client.get(reverse("organize-new"), {"preset": key, "year": year, "tournaments": tournaments})
    form = response.context
    data = {"preset": key, "year": str(year), "tournaments": str(tournaments)}
    for prefix, formset in (("t", form["tournaments"]), ("s", form["stages"])):
        data.update({f"{prefix}-TOTAL_FORMS": str(formset.total_form_count()), f"{prefix}-INITIAL_FORMS": "0"})
        for sub in formset.forms:
            for name in sub.fields:
                value = sub[name].value()
                data[sub.add_prefix(name)] = "" if value is None else str(value)
    championship = form["championship"]
    for name in championship.fields:
        value = championship[name].value()
        data[championship.add_prefix(name)] = "" if value is None else str(value)
    return data


def test_a_preset_adjusted_in_the_browser_is_created_and_its_creator_organizes_it(client):
    user = creator()
    client.force_login(user)
    data = _adjust_form(client, "uae-2022", 2030)
    data.update({"t-0-city": "Sharjah", "t-0-date": "2030-05-04", "t-0-official_start": "10:00",
                 "t-0-advance_count": "6", "s-0-games": "4", "c-name": "UAE Cup 2030"})
    response = client.post(reverse("organize-new"), data)
    championship = Championship.objects.get(name="UAE Cup 2030")
    assert response.status_code == 302 and response["Location"].endswith(f"/championships/{championship.slug}/")
    first = championship.tournaments.order_by("date").first()
    assert (first.city, str(first.date), str(first.official_start), first.advance_count) == (
        "Sharjah", "2030-05-04", "10:00:00", 6)
    assert first.stages.get().games == 4
    assert championship.tournaments.count() == 3 and championship.preset == "uae-2022"
    assert StaffRole.objects.filter(user=user, championship=championship, role="organizer").exists()
    assert client.get(response["Location"]).status_code == 200


def test_a_bad_plan_shows_messages_on_its_fields_and_creates_nothing(client):
    client.force_login(creator())
    data = _adjust_form(client, "world-championship", 2030)
    data.update({"s-1-players": "6"})
    response = client.post(reverse("organize-new"), data)
    assert response.status_code == 422
    assert "multiple of 4" in response.content.decode()
    assert not Championship.objects.exists()


def test_a_custom_format_with_its_own_stages_ruleset_and_advancing_count(client):
    client.force_login(creator())
    data = _adjust_form(client, "custom", 2030)
    data.update({"c-name": "Club nights", "c-ruleset": "lord-of-catan", "t-0-advance_count": "0",
                 "s-0-games": "2", "s-1-games": "1", "s-1-players": "8", "s-2-games": "1", "s-2-players": "4"})
    response = client.post(reverse("organize-new"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament = Championship.objects.get(name="Club nights").tournaments.get()
    assert tournament.ruleset == "lord-of-catan"
    assert [(s.kind, s.games, s.seating, s.players) for s in tournament.stages.order_by("order")] == [
        ("preliminary", 2, "scheduled", None), ("semifinal", 1, "seeded", 8), ("final", 1, "seeded", 4)]


def test_only_creators_see_the_new_championship_page(client):
    client.force_login(make_official(make_tournament(), "organizer"))
    assert client.get(reverse("organize-new")).status_code == 403
    assert client.post(reverse("organize-new"), {"preset": "custom", "year": "2030"}).status_code == 403


def test_inviting_by_email_from_the_staff_page_sends_a_set_password_link(client, django_capture_on_commit_callbacks):
    tournament = make_tournament()
    organizer = make_official(tournament, "organizer")
    client.force_login(organizer)
    url = reverse("organize-staff", args=[tournament.slug])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"identifier": "ref@example.com", "role": "referee"})
    assert response.status_code == 302
    assert StaffRole.objects.filter(tournament=tournament, role="referee", user__email="ref@example.com").exists()
    assert len(mail.outbox) == 1 and "/accounts/reset/" in mail.outbox[0].body
    page = client.get(url).content.decode()
    role = StaffRole.objects.get(tournament=tournament, role="referee")
    assert reverse("organize-staff-remove", args=[role.pk]) in page
    client.post(reverse("organize-staff-remove", args=[role.pk]))
    assert not StaffRole.objects.filter(pk=role.pk).exists()
    bad = client.post(url, {"identifier": "x" * 300, "role": "referee"})
    assert bad.status_code == 422


def test_a_qualifiers_console_shows_its_podium_but_no_champion(client):
    """Issue 20 item 11: a finished qualifier's console announced a "Champion"; only the event that ends the
    championship (its finals) has one (RULES §1: the winner of the finals' last game)."""
    tournament = make_tournament(games=1)
    entries = make_entries(tournament, 4)
    play(make_game(tournament, [entries]).tables.get(), [7, 10, 5, 3], make_official(tournament))
    client.force_login(make_official(tournament, "organizer"))

    page = client.get(reverse("organize-tournament", args=[tournament.slug])).content.decode()

    assert '<h2 id="podium-title">Podium</h2>' in page and f"<bdi>{entries[1].player.name}</bdi>" in page
    assert not re.search(r"[Cc]hampion(?!ship)", page)


def test_no_table_is_said_to_be_signed_off_before_a_game_is_published(client):
    """Issue 20 item 11: before anything was published the console said "Every table of the published games has a
    signed-off result"; it says no game is published yet, on the page and in its live list."""
    tournament = make_tournament(games=1)
    entries = make_entries(tournament, 4)
    client.force_login(make_official(tournament, "organizer"))
    pages = [reverse(name, args=[tournament.slug]) for name in ("organize-tournament", "organize-missing")]
    all_signed = "Every table of the published games has a signed-off result."

    for url in pages:
        page = client.get(url).content.decode()
        assert "No game is published yet." in page and all_signed not in page, url

    play(make_game(tournament, [entries]).tables.get(), [7, 10, 5, 3], make_official(tournament))
    for url in pages:
        page = client.get(url).content.decode()
        assert all_signed in page and "No game is published yet." not in page, url


def test_a_staff_invite_starts_on_referee_and_organizer_rights_need_a_confirmation(client):
    """Issue 20 item 9: one tap gave a newcomer organizer rights (results, players, staff). The role starts on
    referee; organizer needs a ticked confirmation the server checks (it works without JavaScript)."""
    tournament = make_tournament()
    organizer = make_official(tournament, "organizer")
    StaffRole.objects.create(user=organizer, role="organizer", championship=tournament.championship)
    client.force_login(organizer)
    for url, scope in ((reverse("organize-staff", args=[tournament.slug]), {"tournament": tournament}),
                       (reverse("organize-championship-staff", args=[tournament.championship.slug]),
                        {"championship": tournament.championship})):
        page = client.get(url).content.decode()
        assert 'name="confirm_organizer"' in page
        if "tournament" in scope:
            assert '<option value="referee" selected>' in page

        refused = client.post(url, {"identifier": "boss@example.com", "role": "organizer"})

        assert refused.status_code == 422
        assert "Organizer rights need this confirmation." in refused.content.decode()
        assert not get_user_model().objects.filter(email="boss@example.com").exists()
        granted = client.post(url, {"identifier": "boss@example.com", "role": "organizer", "confirm_organizer": "on"})
        assert granted.status_code == 302
        assert StaffRole.objects.filter(role="organizer", user__email="boss@example.com", **scope).exists()
        get_user_model().objects.filter(email="boss@example.com").delete()
    referee = client.post(reverse("organize-staff", args=[tournament.slug]),
                          {"identifier": "ref@example.com", "role": "referee"})
    assert referee.status_code == 302  # a referee needs no confirmation


def test_a_custom_format_with_qualifiers_and_finals(client):
    client.force_login(creator())
    data = _adjust_form(client, "custom", 2030, tournaments=3)
    data.update({"c-name": "Desert league", "t-2-capacity": "16", "s-8-games": "1", "s-8-players": "4"})
    response = client.post(reverse("organize-new"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    tournaments = list(Championship.objects.get(name="Desert league").tournaments.order_by("pk"))
    assert [(t.kind, t.advance_count, t.capacity) for t in tournaments] == [
        ("qualifier", 8, None), ("qualifier", 8, None), ("finals", 0, 16)]
    assert [(s.kind, s.games, s.players) for s in tournaments[2].stages.order_by("order")] == [
        ("preliminary", 3, None), ("final", 1, 4)]
