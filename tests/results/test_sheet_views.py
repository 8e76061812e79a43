"""The referee screens over HTTP: the whole flow, messages next to fields, and the permission matrix."""
import pytest
from django.test import Client
from django.urls import reverse

from audit.models import AuditEntry
from championships.services import enter_player
from results.models import RecordSheet
from tests.factories import make_admin, make_entries, make_game, make_official, make_player, make_tournament, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    tournament = make_tournament(slug="dubai")
    return make_game(tournament, [make_entries(tournament, 4)]).tables.get()


def url(name, table, **extra):
    return reverse(name, kwargs={"slug": table.game.tournament.slug, "table_id": table.pk, **extra})


def scores_post(table, vps, winner=None, version=0):
    seats = list(table.seats.order_by("position"))
    data = {f"vp_{seat.entry_id}": "" if vp is None else str(vp) for seat, vp in zip(seats, vps)}
    data.update(base_version=str(version), start_time="10:00", end_time="11:20")
    if winner is not None:
        data["winner"] = str(seats[winner].entry_id)
    return data


def test_referee_fills_signs_and_signs_off(client, table, django_capture_on_commit_callbacks):
    referee = make_official(table.game.tournament)
    client.force_login(referee)
    page = client.get(url("referee-sheet", table))
    assert page.status_code == 200
    names = [seat.entry.player.name for seat in table.seats.order_by("position")]
    html = page.content.decode()
    assert [html.index(name) for name in names] == sorted(html.index(name) for name in names)  # play order
    response = client.post(url("referee-scores", table), scores_post(table, [6, 10, 7, 5]))
    assert response.status_code == 302
    sheet = RecordSheet.objects.get(table=table)
    assert sheet.status == "signing"
    for entry_id in table.seats.values_list("entry_id", flat=True):
        client.post(url("referee-sign", table), {"entry": entry_id, "version": 1, "method": "tap"})
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url("referee-sign-off", table), {"version": 1})
    assert response.status_code == 302
    sheet.refresh_from_db()
    assert sheet.is_locked
    standings = Client().get(reverse("public-standings", kwargs={"slug": "dubai"})).content.decode()
    assert standings.index(names[1]) < standings.index(names[2]) < standings.index(names[0])
    seating = client.get("/api/tournaments/dubai/games/1/seating/").json()
    assert seating["tables"][0]["status"] == "signed_off"
    assert [(s["vp"], s["winner"]) for s in seating["tables"][0]["seats"]] == [
        (6, False), (10, True), (7, False), (5, False)]


def test_errors_are_shown_next_to_their_field_and_typed_values_kept(client, table):
    client.force_login(make_official(table.game.tournament))
    response = client.post(url("referee-scores", table), scores_post(table, [6, 9, 13, None]))
    assert response.status_code == 422
    html = response.content.decode()
    assert "VP must be a whole number from 0 to 12" in html or "Ensure this value is less than or equal to 12" in html
    assert 'value="6"' in html and 'value="9"' in html
    assert RecordSheet.objects.get(table=table).version == 0


def test_no_winner_message(client, table):
    client.force_login(make_official(table.game.tournament))
    response = client.post(url("referee-scores", table), scores_post(table, [6, 9, 7, 5]))
    assert response.status_code == 422 and "No winner" in response.content.decode()


def test_drawn_signature_and_overruled_refusal(client, table):
    referee = make_official(table.game.tournament)
    client.force_login(referee)
    client.post(url("referee-scores", table), scores_post(table, [10, 7, 6, 5]))
    first, second = table.seats.order_by("position").values_list("entry_id", flat=True)[:2]
    client.post(url("referee-sign", table), {"entry": first, "version": 1, "method": "drawn",
                                             "image": "M10 10L50 60L90 20"})
    response = client.post(url("referee-sign", table), {"entry": second, "version": 1, "method": "overruled",
                                                        "decision": ""})
    assert response.status_code == 422 and "Write down the decision" in response.content.decode()
    client.post(url("referee-sign", table), {"entry": second, "version": 1, "method": "overruled",
                                             "decision": "Refused without reason; scores checked."})
    sheet = RecordSheet.objects.get(table=table)
    assert sorted(sheet.signatures.values_list("method", flat=True)) == ["drawn", "overruled"]
    assert "M10 10L50 60L90 20" in client.get(url("referee-sheet", table)).content.decode()


def sheet_actions(table):
    entry_id = table.seats.first().entry_id
    return [
        ("get", url("referee-sheet", table), {}),
        ("post", url("referee-scores", table), scores_post(table, [10, 7, 6, 5])),
        ("post", url("referee-sign", table), {"entry": entry_id, "version": 0, "method": "tap"}),
        ("post", url("referee-sign-off", table), {"version": 0}),
        ("post", url("referee-correct", table), {**scores_post(table, [10, 8, 6, 5]), "reason": "typo"}),
        ("get", reverse("referee-desk", kwargs={"slug": table.game.tournament.slug}), {}),
        ("post", reverse("referee-penalties", kwargs={"slug": table.game.tournament.slug}),
         {"entry": entry_id, "kind": "warning", "vp": 0, "reason": "collusion"}),
    ]


@pytest.mark.parametrize("who", ["anonymous", "player", "other-referee", "other-organizer"])
def test_outsiders_change_nothing(client, table, who):
    if who == "player":
        user = make_user()
        enter_player(make_player(user=user), table.game.tournament, user=make_admin())
        client.force_login(user)
    elif who != "anonymous":
        client.force_login(make_official(make_tournament(), who.split("-")[1]))
    audited = AuditEntry.objects.count()
    for method, target, data in sheet_actions(table):
        response = getattr(client, method)(target, data)
        if who == "anonymous":
            assert response.status_code == 302 and "/accounts/login/" in response["Location"]
        else:
            assert response.status_code == 403, (target, response.status_code)
    sheet = RecordSheet.objects.get(table=table)
    assert sheet.version == 0 and not sheet.signatures.exists()
    assert AuditEntry.objects.count() == audited and not table.game.tournament.penalties.exists()


def test_referee_cannot_correct_but_organizer_can(client, table, django_capture_on_commit_callbacks):
    referee = make_official(table.game.tournament)
    client.force_login(referee)
    client.post(url("referee-scores", table), scores_post(table, [10, 7, 6, 5]))
    for entry_id in table.seats.values_list("entry_id", flat=True):
        client.post(url("referee-sign", table), {"entry": entry_id, "version": 1, "method": "tap"})
    client.post(url("referee-sign-off", table), {"version": 1})
    correction = {**scores_post(table, [10, 8, 6, 5], version=2), "reason": "paper says 8"}
    assert client.post(url("referee-correct", table), correction).status_code == 403
    assert client.post(url("referee-scores", table), scores_post(table, [10, 9, 6, 5], version=2)).status_code == 302
    assert RecordSheet.objects.get(table=table).version == 2  # locked: nothing changed
    client.force_login(make_official(table.game.tournament, "organizer"))
    page = client.get(url("referee-sheet", table)).content.decode()
    assert "Correct a transcription error" in page
    assert client.post(url("referee-correct", table), correction).status_code == 302
    sheet = RecordSheet.objects.get(table=table)
    assert sheet.version == 3 and list(sheet.scores.values_list("vp", flat=True).order_by("seat__position")) == [
        10, 8, 6, 5]
    history = client.get(url("referee-sheet", table)).content.decode()
    assert "paper says 8" in history and "Version 2" in history and "Version 3" in history


def test_desk_shows_every_table_with_its_state(client, table):
    tournament = table.game.tournament
    client.force_login(make_official(tournament))
    html = client.get(reverse("referee-desk", kwargs={"slug": tournament.slug})).content.decode()
    assert "Table 1" in html and "not started" in html


def test_penalty_and_draw_screens(client, table):
    tournament = table.game.tournament
    referee = make_official(tournament)
    client.force_login(referee)
    entry_id = table.seats.first().entry_id
    response = client.post(reverse("referee-penalties", kwargs={"slug": tournament.slug}),
                           {"entry": entry_id, "kind": "warning", "reason": ""})
    assert response.status_code == 422 and "Give the reason for the penalty" in response.content.decode()
    response = client.post(reverse("referee-penalties", kwargs={"slug": tournament.slug}),
                           {"entry": entry_id, "kind": "warning", "reason": "Talked across tables"})
    assert response.status_code == 302
    assert AuditEntry.objects.filter(action="penalty.warning", user=referee).exists()
    draws = client.get(reverse("referee-draws", kwargs={"slug": tournament.slug}))
    assert draws.status_code == 200


def test_recorded_draw_orders_tied_players(client, django_capture_on_commit_callbacks):
    tournament = make_tournament(slug="tied", advance_count=2)
    entries = make_entries(tournament, 3)
    client.force_login(make_official(tournament))
    page = client.get(reverse("referee-draws", kwargs={"slug": "tied"})).content.decode()
    assert "Tied at rank 1" in page and "crosses the top-2 cut-off" in page
    order = [entries[2], entries[0], entries[1]]
    data = {"rank": "1", "tie1-method": "cards", "tie1-note": "youngest chose"}
    data.update({f"tie1-place_{i}": str(e.pk) for i, e in enumerate(order, 1)})
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(reverse("referee-draws", kwargs={"slug": "tied"}), data).status_code == 302
    rows = client.get("/api/tournaments/tied/standings/").json()
    assert [(r["rank"], r["entry"], r["tied"]) for r in rows] == [(1, order[0].pk, False), (2, order[1].pk, False),
                                                                   (3, order[2].pk, False)]


def test_draw_naming_a_player_twice_is_refused(client):
    tournament = make_tournament(slug="tied2")
    entries = make_entries(tournament, 2)
    client.force_login(make_official(tournament))
    data = {"rank": "1", "tie1-method": "lots", "tie1-place_1": entries[0].pk, "tie1-place_2": entries[0].pk}
    response = client.post(reverse("referee-draws", kwargs={"slug": "tied2"}), data)
    assert response.status_code == 422 and "exactly one place" in response.content.decode()


def test_a_resubmitted_penalty_form_records_one_penalty(client, table):
    tournament = table.game.tournament
    client.force_login(make_official(tournament))
    url = reverse("referee-penalties", kwargs={"slug": tournament.slug})
    page = client.get(url).content.decode()
    key = page.split('name="request_key" value="')[1].split('"')[0]
    data = {"entry": table.seats.first().entry_id, "kind": "lateness", "minutes": 12, "reason": "12 minutes late",
            "request_key": key}
    assert client.post(url, data).status_code == 302
    assert client.post(url, data).status_code == 302  # the retry after a dropped connection
    assert tournament.penalties.count() == 1
    assert AuditEntry.objects.filter(action="penalty.lateness").count() == 1


def test_reloading_an_action_address_shows_the_sheet(client, table):
    client.force_login(make_official(table.game.tournament))
    for name in ("referee-scores", "referee-sign", "referee-sign-off", "referee-correct"):
        response = client.get(url(name, table))
        assert response.status_code == 302 and response["Location"] == url("referee-sheet", table)


def test_a_stale_draw_from_a_second_device_says_nothing_was_recorded(client, django_capture_on_commit_callbacks):
    tournament = make_tournament(slug="tied3")
    entries = make_entries(tournament, 2)
    client.force_login(make_official(tournament))
    data = {"rank": "1", "tie1-method": "lots", "tie1-place_1": entries[0].pk, "tie1-place_2": entries[1].pk}
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("referee-draws", kwargs={"slug": "tied3"}), data)
    second = client.post(reverse("referee-draws", kwargs={"slug": "tied3"}), data, follow=True)
    assert "That tie is no longer open" in second.content.decode()
    assert tournament.tiebreak_draws.count() == 1


def test_not_allowed_page_explains_and_changes_nothing(client, table):
    client.force_login(make_user())
    response = client.get(url("referee-sheet", table))
    assert response.status_code == 403 and "Nothing was changed" in response.content.decode()


def test_sign_in_keeps_the_language_and_lands_on_the_staff_home(client):
    make_official(make_tournament(), username="arabic-referee")
    page = client.get("/ar/accounts/login/").content.decode()
    assert 'lang="ar" dir="rtl"' in page
    response = client.post("/accounts/login/", {"username": "arabic-referee", "password": "pw-for-tests-only"})
    assert response.status_code == 302 and response["Location"] == "/referee/"
