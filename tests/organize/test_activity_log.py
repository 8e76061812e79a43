"""The organizer's activity log: whose entries, described in words, filtered, paged, exported, and admin edits in it."""
import csv
import io
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.safestring import SafeData
from django.utils.translation import override

from audit.actions import Action, Kind
from audit.models import AuditEntry
from audit.services import record_change
from championships.models import Entry, Tournament
from championships.services import enter_player
from results.announcements import post_announcement
from results.draws import record_draw
from results.penalties import record_penalty
from results.publishing import reconcile_game_status, unpublish_game
from tests.factories import (
    make_admin,
    make_entries,
    make_game,
    make_official,
    make_player,
    make_tournament,
    make_user,
    play,
)
from web.organize.activity.sentences import described
from web.organize.views.activity import PER_PAGE

pytestmark = pytest.mark.django_db


def log_url(tournament, **query):
    url = reverse("activity-log", args=[tournament.slug])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def csv_url(tournament, **query):
    url = reverse("activity-log-csv", args=[tournament.slug])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def read_csv(response) -> list[list[str]]:
    text = b"".join(response.streaming_content if response.streaming else [response.content]).decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:])))


def signed_off_table(tournament, referee):
    """Game 1 with one table whose sheet is entered, signed by tap and signed off: six audit entries."""
    table = make_game(tournament, [make_entries(tournament, 4)]).tables.get()
    play(table, [10, 7, 6, 5], referee)
    return table


@pytest.fixture
def cup():
    tournament = make_tournament(slug="dubai-cup", name="Dubai Cup")
    organizer = make_official(tournament, "organizer", username="cup-organizer")
    referee = make_official(tournament, "referee", username="cup-referee")
    return tournament, organizer, referee


def test_the_organizer_sees_their_tournament_in_words_and_not_another(client, cup):
    tournament, organizer, referee = cup
    table = signed_off_table(tournament, referee)
    first = table.seats.order_by("position").first().entry
    record_penalty(first.pk, user=referee, kind="warning", reason="Talked across tables")
    other = make_tournament(slug="abu-dhabi-open")
    stranger = make_entries(other, 1)[0]
    record_penalty(stranger.pk, user=make_official(other), kind="warning", reason="Secret of the other event")

    client.force_login(organizer)
    response = client.get(log_url(tournament))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Secret of the other event" not in html and stranger.player.name not in html
    assert "Game 1 · Table 1" in html and "Scores entered" in html and "Result signed off and locked" in html
    assert f"<bdi>{first.player.name}</bdi> confirmed the result by tap" in html
    assert f"Warning for <bdi>{first.player.name}</bdi>" in html
    assert "Reason: <bdi>Talked across tables</bdi>" in html
    assert "cup-referee appointed referee" in html.replace("<bdi>", "").replace("</bdi>", "")
    assert "sheet.signed_off" not in html  # known actions are told in words, not codes
    assert "<details" in html and "</bdi>: 10 VP (winner)" in html  # the scores in the details, readable
    count = AuditEntry.objects.filter(tournament=tournament).count()
    assert f"{count} changes" in html
    assert re.search(r'<time datetime="2\d{3}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+04:00">', html)  # venue time (Dubai)


def test_the_filter_offers_translated_kinds_and_keeps_only_that_kind(client, cup):
    tournament, organizer, referee = cup
    entry = make_entries(tournament, 1)[0]
    record_penalty(entry.pk, user=referee, kind="warning", reason="Slow play")
    enter_player(make_player("Late Larry"), tournament, user=organizer)
    client.force_login(organizer)

    html = client.get(log_url(tournament, kind="penalty")).content.decode()
    assert '<option value="penalty" selected>Penalties</option>' in html
    assert "Warning for <bdi>" in html and "Slow play" in html
    assert "Late Larry" not in html and "appointed" not in html
    assert "1 change of kind “Penalties”" in html

    arabic = client.get("/ar" + log_url(tournament, kind="entry")).content.decode()
    with override("ar"):
        label = str(Kind.ENTRY.label)
    assert label != "Entries" and f'<option value="entry" selected>{label}</option>' in arabic
    assert "Late Larry" in arabic

    everything = client.get(log_url(tournament, kind="nonsense")).content.decode()
    assert "Late Larry" in everything and "Slow play" in everything  # an unknown kind shows all


def test_pages_keep_the_kind_and_the_log_is_newest_first(client, cup):
    tournament, organizer, referee = cup
    entry = make_entries(tournament, 1)[0]
    for n in range(PER_PAGE + 3):
        record_change(referee, tournament.pk, Action.PENALTY_WARNING, entry, reason=f"reason {n:03}", after={
            "entry": entry.pk, "player": f"Pager {n:03}", "kind": "warning", "vp": 0, "game": None,
            "reason": f"reason {n:03}"})
    client.force_login(organizer)

    first = client.get(log_url(tournament, kind="penalty")).content.decode()
    assert f"{PER_PAGE + 3} changes" in first and "Page 1 of 2" in first
    assert "?kind=penalty&amp;page=2" in first and 'rel="prev"' not in first
    assert first.index(f"Pager {PER_PAGE + 2:03}") < first.index(f"Pager {PER_PAGE + 1:03}")
    assert "Pager 002" not in first

    second = client.get(log_url(tournament, kind="penalty", page=2)).content.decode()
    assert "Pager 002" in second and "Pager 000" in second and "Page 2 of 2" in second
    assert "?kind=penalty&amp;page=1" in second and 'rel="next"' not in second
    assert second.count('class="activity-entry') == 3


def test_csv_has_the_same_entries_with_descriptions_and_neutralised_formulas(client, cup):
    tournament, organizer, referee = cup
    sly = make_user("=HYPERLINK(\"http://x\")")
    make_admin()
    from championships.services import assign_staff

    assign_staff(sly, "referee", tournament=tournament, user=organizer)
    enter_player(make_player("=cmd|' /C calc'!A0"), tournament, user=organizer)
    entry = make_entries(tournament, 1)[0]
    record_penalty(entry.pk, user=sly, kind="lateness", vp=1, reason="-5 minutes late")
    client.force_login(organizer)

    response = client.get(csv_url(tournament))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert 'filename="dubai-cup-activity.csv"' in response["Content-Disposition"]
    rows = read_csv(response)
    assert rows[0] == ["at", "user", "action", "description", "object_type", "object_id", "before", "after",
                       "reason"]
    assert len(rows) - 1 == AuditEntry.objects.filter(tournament=tournament).count()
    penalty = rows[1]  # newest first
    assert penalty[1] == "'=HYPERLINK(\"http://x\")" and penalty[2] == "penalty.lateness"
    assert penalty[3] == f"Late arrival: {entry.player.name} loses 1 VP"
    assert penalty[8] == "'-5 minutes late"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+\+04:00", penalty[0])
    registered = next(row for row in rows if row[2] == "entry.registered")
    assert registered[3] == "'=cmd|' /C calc'!A0 entered"
    assert '"player": "=cmd' in registered[7]  # JSON cells start with "{": left alone
    assert all(not cell.startswith(("=", "+", "-", "@")) for row in rows for cell in row)

    only_penalties = read_csv(client.get(csv_url(tournament, kind="penalty")))
    assert [row[2] for row in only_penalties[1:]] == ["penalty.lateness"]

    arabic = read_csv(client.get("/ar" + csv_url(tournament, kind="penalty")))
    assert arabic[1][3] != penalty[3] and entry.player.name in arabic[1][3]


@pytest.mark.parametrize("name", ["activity-log", "activity-log-csv"])
def test_only_organizers_of_the_tournament_may_read_it(client, cup, name):
    tournament, organizer, referee = cup
    url = reverse(name, args=[tournament.slug])
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    client.force_login(referee)
    assert client.get(url).status_code == 403
    client.force_login(make_official(make_tournament(), "organizer"))
    assert client.get(url).status_code == 403
    client.force_login(make_user())
    assert client.get(url).status_code == 403
    client.force_login(organizer)
    assert client.get(url).status_code == 200


def test_the_activity_link_is_for_organizers_only(client, cup):
    tournament, organizer, referee = cup
    link = f'href="{reverse("activity-log", args=[tournament.slug])}"'
    desk = reverse("referee-desk", args=[tournament.slug])
    client.force_login(referee)
    for url in (desk, reverse("referee-penalties", args=[tournament.slug]),
                reverse("referee-draws", args=[tournament.slug])):
        assert link not in client.get(url).content.decode(), url
    client.force_login(organizer)
    for name in ("referee-desk", "seating-overview", "qualification", "activity-log"):
        url = reverse(name, args=[tournament.slug])
        assert link in client.get(url).content.decode(), url


def many_entries(tournament, referee, n: int) -> None:
    """n entries of every kind the log describes, about real games, tables, sheets and players."""
    entries = make_entries(tournament, 4)
    game = make_game(tournament, [entries], number=1 + Tournament.objects.get(pk=tournament.pk).games.count())
    table = game.tables.get()
    sheet = table.sheet
    stage = tournament.stages.first()
    actions = [
        (Action.SEATING_GENERATED, stage, None, {"games": [1, 2]}),
        (Action.SEATING_SWAPPED, game, {"A": [1, 2], "B": [2, 3]}, {"A": [2, 3], "B": [1, 2]}),
        (Action.SEATING_PLAY_ORDER, table, {"order": [e.pk for e in entries]},
         {"order": [e.pk for e in entries][::-1]}),
        (Action.SHEET_ENTERED, sheet, None, {"scores": [{"player": "A", "vp": 10, "winner": True}]}),
        (Action.SHEET_SIGNED_OFF, sheet, None, {}),
        (Action.QUALIFICATION_ADVANCED, tournament, None, {"qualified": [["A", 1]]}),
        (Action.ADMIN_CHANGED, entries[0], {"player_id": entries[0].player_id, "status": "registered"},
         {"player_id": entries[0].player_id, "status": "withdrawn"}),
        (Action.PENALTY_WARNING, entries[1], None, {"player": "B", "game": 1}),
    ]
    for i in range(n):  # stored as they are: parts of payloads, as an older version may have left them
        action, obj, before, after = actions[i % len(actions)]
        AuditEntry.objects.create(tournament=tournament, user=referee, action=action, object_type=obj._meta.model_name,
                                  object_id=obj.pk, before=before, after=after)


def test_the_number_of_queries_does_not_grow_with_the_entries(client, cup, django_assert_max_num_queries):
    tournament, organizer, referee = cup
    client.force_login(organizer)
    many_entries(tournament, referee, 8)
    with CaptureQueriesContext(connection) as few:
        assert client.get(log_url(tournament)).status_code == 200
    many_entries(tournament, referee, 40)
    with django_assert_max_num_queries(len(few)), CaptureQueriesContext(connection) as more:
        html = client.get(log_url(tournament)).content.decode()
    assert html.count('class="activity-entry') == PER_PAGE
    assert len(more) == len(few) <= 16
    with CaptureQueriesContext(connection) as export:
        rows = read_csv(client.get(csv_url(tournament)))
    assert len(rows) - 1 == AuditEntry.objects.filter(tournament=tournament).count()
    assert len(export) <= 16


def test_descriptions_of_the_seating_and_an_unknown_action(cup):
    tournament, organizer, referee = cup
    entries = make_entries(tournament, 4)
    game = make_game(tournament, [entries])
    unpublish_game(game.pk, user=organizer)
    record_draw(tournament, [entries[1].pk, entries[0].pk], user=referee, method="cards")
    # An entry of an action this version does not know (a backup from a newer one): shown by its code.
    AuditEntry.objects.create(tournament=tournament, user=organizer, action="entry.teleported", object_type="entry",
                              object_id=entries[2].pk, after={"status": "checked_in"})
    rows = {row.entry.action: row for row in described(AuditEntry.objects.filter(tournament=tournament))}
    assert rows["seating.unpublished"].description == "Game 1: Seating taken back to be planned again"
    assert rows["draw.cards"].what == (f"Development card draw, best first: {entries[1].player.name}, "
                                       f"{entries[0].player.name}")
    unknown = rows["entry.teleported"]
    assert not unknown.known and unknown.what == "entry.teleported"
    assert unknown.where == f"entry #{entries[2].pk}" and "<code>entry.teleported</code>" in unknown.what_html
    with override("ar"):
        arabic = described([rows["seating.unpublished"].entry])[0]
    assert arabic.what != "Seating taken back to be planned again"


def test_a_repaired_game_status_is_told_in_words(cup):
    from scheduling.models import Game

    tournament, organizer, referee = cup
    entries = make_entries(tournament, 4)
    game = make_game(tournament, [entries])
    play(game.tables.get(), [10, 7, 6, 5], referee)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.PUBLISHED)
    reconcile_game_status(game.pk, user=organizer)
    (row,) = described(AuditEntry.objects.filter(action="seating.status_repaired"))
    assert row.known and row.details == []
    assert row.description == ("Game 1: Game status repaired from its record sheets: every table is signed off, "
                               "the game is finished")


@pytest.fixture
def superuser_client(client):
    client.force_login(make_user("root-admin", is_staff=True, is_superuser=True))
    return client


def admin_form_data(response) -> dict:
    """What the browser would send back from an admin change form, inlines included."""
    data = {}
    forms = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        management = formset.management_form
        data.update({management.add_prefix(name): management[name].value() for name in management.fields})
        forms.extend(formset.forms)
    for form in forms:
        for name in form.fields:
            value = form[name].value()
            if value is None or value is False:
                continue
            data[form.add_prefix(name)] = "on" if value is True else value
    return {key: value for key, value in data.items() if value is not None}


def test_edits_in_the_admin_are_in_the_log(superuser_client, cup):
    tournament, organizer, referee = cup
    entry = make_entries(tournament, 1)[0]
    change_url = reverse("admin:championships_tournament_change", args=[tournament.pk])
    data = admin_form_data(superuser_client.get(change_url))
    data.update(name="Dubai Cup 2026", city="Dubai")
    response = superuser_client.post(change_url, data)
    assert response.status_code == 302, response.context and response.context["errors"]
    changed = AuditEntry.objects.get(tournament=tournament, action="admin.changed")
    assert changed.object_type == "tournament" and changed.object_id == tournament.pk
    assert changed.before["name"] == "Dubai Cup" and changed.after["name"] == "Dubai Cup 2026"
    assert changed.user.username == "root-admin"

    delete_url = reverse("admin:championships_entry_delete", args=[entry.pk])
    assert superuser_client.post(delete_url, {"post": "yes"}).status_code == 302
    assert not Entry.objects.filter(pk=entry.pk).exists()
    deleted = AuditEntry.objects.get(tournament=tournament, action="admin.deleted")
    assert deleted.object_type == "entry" and deleted.object_id == entry.pk
    assert deleted.before["player_id"] == entry.player_id and deleted.after is None

    superuser_client.force_login(organizer)
    html = superuser_client.get(log_url(tournament, kind="admin")).content.decode()
    assert "Changed in the admin: tournament “<bdi>Dubai Cup 2026</bdi>”" in html
    assert f"Deleted in the admin: entry “<bdi>{entry.player.name}</bdi>”" in html
    assert '<bdi>Dubai Cup 2026</bdi> <span class="was">(was <bdi>Dubai Cup</bdi>)</span>' in html


P = {"player": "Ann"}
SAMPLES = {
    Action.SEATING_GENERATED: {"": (None, {}), "games": (None, {"games": [1, 2]})},
    Action.SEATING_SWAPPED: {"": ({"Ann": [1, 1], "Bob": [2, 3]}, {"Ann": [2, 3], "Bob": [1, 1]})},
    Action.SEATING_PUBLISHED: {"": (None, {})},
    Action.SEATING_UNPUBLISHED: {"": (None, {})},
    Action.SEATING_STATUS_REPAIRED: {"finished": ({"status": "published"}, {"status": "finished"}),
                                     "reopened": ({"status": "finished"}, {"status": "published"})},
    Action.SEATING_PLAY_ORDER: {"": ({"order": []}, {"order": [1, 2]})},
    Action.SEATING_SEEDED: {"": (None, {})},
    Action.SEATING_CLEARED: {"": ({"tables": [["Ann", "Bob", "Cy"]]}, {"tables": []})},
    Action.BOARD_CHANGED: {"typed": (None, {"board": "ABC", "typed": True}), "random": (None, {"board": "XYZ"})},
    Action.BOARD_LIMITS: {"": (None, {"limits": ["balanced_pips"]}), "off": ({"limits": ["balanced_pips"]},
                                                                          {"limits": []})},
    Action.CLOCK_START: {"": (None, {"seconds": 300})},
    Action.CLOCK_PAUSE: {"": (None, {"paused_remaining": 75})},
    Action.CLOCK_RESUME: {"": (None, {})},
    Action.CLOCK_END: {"": (None, {})},
    Action.CLOCK_RESET: {"": (None, {})},
    Action.TURNS_ON: {"": (None, {"turn_seconds": 90}), "finish": (None, {"turn_seconds": 90, "finish_seconds": 30}),
                      "placement": (None, {"turn_seconds": 90, "placement_seconds": 20})},
    Action.TURNS_OFF: {"": (None, {})},
    Action.SHEET_ENTERED: {"": (None, {"scores": []}), "changed": ({"scores": []}, {"scores": []}),
                           "cleared": ({"scores": []}, {"signatures_cleared": True})},
    Action.SHEET_SIGNATURE_DRAWN: {"": (None, P)},
    Action.SHEET_SIGNATURE_TAP: {"": (None, P)},
    Action.SHEET_SIGNATURE_OVERRULED: {"": (None, P)},
    Action.SHEET_SIGNATURE_PHONE: {"": (None, P)},
    Action.SHEET_OBJECTION: {"": (None, {**P, "note": "I had 8"})},
    Action.SHEET_SIGNED_OFF: {"": (None, {})},
    Action.SHEET_CORRECTED: {"": ({"scores": []}, {"scores": []})},
    Action.SHEET_BANKER: {"": (None, {"banker": "Ann"}), "referee": (None, {"banker": "referee"})},
    Action.PENALTY_LATENESS: {"": (None, {**P, "vp": 1}), "minutes": (None, {**P, "vp": 1, "minutes": 12})},
    Action.PENALTY_WARNING: {"": (None, P)},
    Action.PENALTY_COLLUSION: {"": (None, {**P, "other": "Bob"})},
    Action.PENALTY_VP_DEDUCTION: {"": (None, {**P, "vp": 2})},
    Action.PENALTY_DISQUALIFICATION: {"": (None, P), "rules": (None, {**P, "ground": "rules"}),
                                      "conduct": (None, {**P, "ground": "conduct"})},
    Action.PENALTY_WITHDRAWN: {"": (None, {**P, "withdrawn_kind": "warning"})},
    Action.PENALTY_COLLUSION_RULING: {
        "disqualified": (None, {**P, "collusion_warnings": 3, "disqualified": True}),
        "kept": (None, {**P, "collusion_warnings": 3, "disqualified": False})},
    Action.DRAW_CARDS: {"": (None, {"order": ["Ann", "Bob"]})},
    Action.DRAW_LOTS: {"": (None, {"order": ["Ann", "Bob"]})},
    Action.CALL_PLACED: {"": (None, {**P, "game": 1, "table": 2, "reason": "rules", "note": "May I trade?"})},
    Action.CALL_TAKEN: {"": (None, {"user": "sam", "game": 1, "table": 2, "reason": "rules"})},
    Action.CALL_PASSED: {"": (None, {"to": "organizer", "game": 1, "table": 2, "reason": "rules"})},
    Action.CALL_RESOLVED: {"": (None, {"game": 1, "table": 2, "reason": "pieces", "ruling": ""}),
                           "ruling": (None, {"game": 1, "table": 2, "reason": "rules", "ruling": "Trades are public"})},
    Action.QUALIFICATION_ADVANCED: {"": (None, {"qualified": [["Ann", 1]]})},
    Action.QUALIFICATION_REPLACED: {"": (P, {"replacement": "Bob"}), "nobody": (P, {})},
    Action.ENTRY_REGISTERED: {"": (None, P)},
    Action.ENTRY_CHECKED_IN: {"": (None, P), "late": (None, {**P, "minutes_late": 5}),
                              "self": (None, {**P, "self": True}),
                              "late_self": (None, {**P, "minutes_late": 5, "self": True})},
    Action.ENTRY_SELF_CHECK_IN_OPENED: {"": (None, {"until": "09:40", "minutes": 10})},
    Action.ENTRY_SELF_CHECK_IN_CLOSED: {"": (None, None)},
    Action.ENTRY_CHECK_IN_UNDONE: {"": (None, P)},
    Action.ENTRY_NOT_ADMITTED_UNDONE: {"": (None, P)},
    Action.ENTRY_NO_SHOW_UNDONE: {"": (None, P)},
    Action.ENTRY_WITHDRAWAL_UNDONE: {"": (None, P)},
    Action.ENTRY_NO_SHOW: {"": (None, P)},
    Action.ENTRY_WITHDRAWN: {"": (None, P)},
    Action.ENTRY_REMOVED: {"": (P, None)},
    Action.ENTRY_INVITED: {"": (None, {**P, "by": "email"})},
    Action.ENTRY_CONFIRMED: {"": (None, P)},
    Action.ENTRY_NOT_ADMITTED: {"": (None, {**P, "minutes_late": 20})},
    Action.PLAYER_REGISTERED: {"": (None, {"name": "Ann"})},
    Action.PLAYER_UPDATED: {"": ({"name": "An"}, {"name": "Ann"})},
    Action.PLAYER_LOOKED_UP: {"email": (None, {**P, "by": "email", "found": True}),
                              "name": (None, {**P, "by": "name", "found": True}),
                              "email_missed": (None, {"by": "email", "found": False}),
                              "name_missed": (None, {"by": "name", "found": False})},
    Action.PLAYER_LOOKED_UP_ELSEWHERE: {by: (None, {**P, "by": by, "tournament": "Cup"}) for by in ("email", "name")},
    Action.PLAYER_ENTERED_ELSEWHERE: {"": (None, {**P, "tournament": "Cup"})},
    Action.PLAYER_REMOVED_ELSEWHERE: {"": (None, {**P, "tournament": "Cup"})},
    Action.PLAYER_LINK_ROTATED: {"": (None, {**P, "links_removed": 2}),
                                 "elsewhere": (None, {**P, "links_removed": 2, "from": "Cup", "from_id": -1})},
    Action.PLAYER_LINK_SENT: {"": (None, P)},
    Action.PLAYER_PUSH_ON: {"": (None, P)},
    Action.PLAYER_PUSH_OFF: {"": (None, P)},
    Action.PLAYER_ERASED: {by: (None, {"player": "Player 7", "by": by}) for by in ("player", "organizer", "retention")},
    Action.REGISTRATION_SUBMITTED: {"": (None, {**P, "email": "ann@example.com"})},
    Action.REGISTRATION_CONFIRMED: {status: (None, {**P, "status": status}) for status in ("entered", "waiting",
                                                                                          "pending")},
    Action.REGISTRATION_APPROVED: {status: (None, {**P, "status": status}) for status in ("entered", "waiting")},
    Action.REGISTRATION_REFUSED: {"": (None, P)},
    Action.REGISTRATION_PROMOTED: {"": (None, P)},
    Action.REGISTRATION_CANCELLED: {"": (None, P)},
    Action.RELATIONSHIP_DECLARED: {"": (None, {"players": ["Ann", "Bob"], "kind": "family"})},
    Action.RELATIONSHIP_REMOVED: {"": ({"players": ["Ann", "Bob"]}, {}),
                                  "elsewhere": ({"players": ["Ann", "Bob"]}, {"declared_elsewhere": True})},
    Action.STAFF_ASSIGNED: {"organizer": (None, {"user": "sam", "role": "organizer"}),
                            "referee": (None, {"user": "sam", "role": "referee"})},
    Action.STAFF_REMOVED: {"": ({"user": "sam", "role": "referee"}, None)},
    Action.STAFF_UNLOCKED: {"": (None, {"user": "sam"})},
    Action.STAFF_ACCOUNT_CREATED: {"": (None, {"user": "sam"})},
    Action.ANNOUNCEMENT_POSTED: {"": (None, {"text": "Lunch at one"})},
    Action.ANNOUNCEMENT_REMOVED: {"": ({"text": "Lunch at one"}, None)},
    Action.TOURNAMENT_STATUS: {"": ({"status": "registration"}, {"status": "running"})},
    Action.TOURNAMENT_CLOSED: {"": ({"status": "running"}, {"status": "finished"})},
    Action.TOURNAMENT_REOPENED: {"": ({"status": "finished"}, {"status": "running"})},
    Action.TOURNAMENT_EMBED_ORIGINS: {"": ({"origins": []}, {"origins": ["https://federation.example"]})},
    Action.TOURNAMENT_REGISTRATION: {variant: ({}, {"variant": variant})
                                     for variant in ("opened", "closed", "changed")},
    Action.CHAMPIONSHIP_CREATED: {"": (None, {"name": "UAE 2026", "preset": "uae"})},
    Action.PRIVACY_NOTICE_CHANGED: {"": (None, {"version": 2})},
    Action.CONSENT_COLLECTED: {"": (None, {"version": 1, "players": 12})},
    Action.TOKEN_CREATED: {"": (None, {"name": "Website", "championship": "uae-2026"})},
    Action.TOKEN_REVOKED: {"": (None, {"name": "Website"})},
    Action.WEBHOOK_ADDED: {"": (None, {"url": "https://example.org/hook", "events": ["game.published"]})},
    Action.WEBHOOK_TURNED_OFF: {"": (None, {"url": "https://example.org/hook"})},
    Action.WEBHOOK_TURNED_ON: {"": (None, {"url": "https://example.org/hook"})},
    Action.WEBHOOK_REMOVED: {"": ({"url": "https://example.org/hook"}, None)},
    Action.WEBHOOK_PINGED: {"": (None, {"url": "https://example.org/hook"})},
    Action.WEBHOOK_SECRET_CHANGED: {"": (None, {"url": "https://example.org/hook"})},
    Action.WEBHOOK_REDELIVERED: {"": (None, {"url": "https://example.org/hook", "delivery": "x"})},
    Action.WEBHOOK_FORMAT_CHANGED: {"": ({"format": "json"}, {"url": "https://example.org/hook", "format": "discord"})},
    Action.WEBHOOK_FAILING: {"": (None, {"url": "https://example.org/hook"})},
    Action.EMAIL_SENT_AGAIN: {"": (None, {"to": "ann@example.com", "subject": "Your private link"})},
    Action.SEASON_CREATED: {"": (None, {"name": "Tour 2026", "championships": ["uae-2026"]})},
    Action.SEASON_CHANGED: {"": ({"name": "Tour"}, {"name": "Tour 2026"})},
    Action.SEASON_DELETED: {"": ({"name": "Tour 2026"}, None)},
    Action.ADMIN_ADDED: {"": (None, {"name": "Ann"})},
    Action.ADMIN_CHANGED: {"": ({"name": "An"}, {"name": "Ann"})},
    Action.ADMIN_DELETED: {"": ({"name": "Ann"}, None)},
}
"""For each action, one entry's before and after for each of its sentences."""


BLANK = r"%\(\w+\)s"


def told_by(sentence) -> re.Pattern:
    """The sentence with any text in its blanks."""
    return re.compile(".*".join(re.escape(part) for part in re.split(BLANK, str(sentence))))


def test_every_action_and_each_of_its_sentences_is_told(cup):
    tournament, organizer, referee = cup
    assert set(SAMPLES) == set(Action), "give every new action an entry here, one for each of its sentences"
    for action, variants in SAMPLES.items():
        assert set(variants) == set(action.sentences), action
        entries = [AuditEntry(tournament=tournament, user=organizer, action=action, object_type="player",
                              object_id=0, before=before, after=after) for before, after in variants.values()]
        with override("en"):
            rows = described(entries)
        for variant, row in zip(variants, rows):
            assert row.known and row.kind_label == action.kind.label, (action, variant)
            matching = [v for v, sentence in action.sentences.items() if told_by(sentence).fullmatch(row.what)]
            # a blank may hold words, so a shorter sentence may match too: the one told has the most words of its own
            assert max(matching, key=lambda v: len(re.sub(BLANK, "", str(action.sentences[v]))),
                       default=None) == variant, (action, variant, row.what)


HOSTILE = '<script>alert("x")</script>'


def test_names_reasons_and_texts_are_escaped_on_the_page_and_plain_in_the_csv(client, cup):
    """Whatever people typed reaches the page HTML-escaped (also inside the sentences, which are safe HTML) and the
    CSV as the text it is, through the spreadsheet-safe cell."""
    tournament, organizer, referee = cup
    stage = tournament.stages.first()
    stage.name = HOSTILE
    stage.save(update_fields=["name"])
    entry = enter_player(make_player(HOSTILE), tournament, user=organizer)
    record_penalty(entry.pk, user=make_official(tournament, username=HOSTILE), kind="warning", reason="@" + HOSTILE)
    post_announcement(tournament.pk, HOSTILE, user=organizer)
    AuditEntry.objects.create(tournament=tournament, user=organizer, action=Action.SEATING_GENERATED,
                              object_type="stage", object_id=stage.pk, after={"games": [HOSTILE]})  # text stored
    record_change(organizer, tournament.pk, Action.ADMIN_CHANGED, entry.player, before={"name": "Ann"},
                  after={"name": HOSTILE})
    escaped = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"

    client.force_login(organizer)
    html = client.get(log_url(tournament)).content.decode()
    assert "<script>alert" not in html
    assert f"<bdi>{escaped}</bdi> entered" in html and f"Warning for <bdi>{escaped}</bdi>" in html
    assert f"Reason: <bdi>@{escaped}</bdi>" in html and f"Announcement posted: <bdi>{escaped}</bdi>" in html
    assert f'<span class="activity-where">{escaped}</span> Seating generated for games <bdi>{escaped}</bdi>' in html
    assert f"Changed in the admin: player “<bdi>{escaped}</bdi>”" in html
    assert f"<bdi>{escaped}</bdi> <span class=\"was\">(was <bdi>Ann</bdi>)</span>" in html  # the details
    assert f"<bdi>{escaped}</bdi></span>" in html  # who made the change

    rows = described(AuditEntry.objects.filter(tournament=tournament))
    for row in rows:
        assert not isinstance(row.what, SafeData) and not isinstance(row.where, SafeData)
        assert "<script" not in row.what_html and all("<script" not in d.value for d in row.details)
    assert sum(HOSTILE in row.what for row in rows) == 6  # entered, appointed, warning, announcement, seating, admin

    response = client.get(csv_url(tournament))
    assert response["Content-Type"].startswith("text/csv") and response["Content-Disposition"].startswith("attachment")
    cells = read_csv(response)
    warning = next(row for row in cells if row[2] == "penalty.warning")
    assert warning[1] == HOSTILE and warning[3] == f"Warning for {HOSTILE}" and warning[8] == "'@" + HOSTILE
    assert not any("&lt;" in cell or "<bdi>" in cell for row in cells for cell in row)
    generated = next(row for row in cells if row[2] == "seating.generated")
    assert generated[3] == f"{HOSTILE}: Seating generated for games {HOSTILE}"
