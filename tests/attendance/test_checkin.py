"""The check-in desk: on time by one tap, late only typed and confirmed (001 §6), every state undone with a reason,
no-shows, withdrawals that re-plan unpublished games, seating from checked-in players."""
import dataclasses
from datetime import datetime, time
from html.parser import HTMLParser

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from attendance import checkin
from audit.models import AuditEntry
from championships.models import Entry, Tournament
from results.models import Penalty
from results.publishing import publish_game
from scheduling.models import Seat
from scheduling.services import generate_seating
from tests.factories import make_entries, make_official, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def day():
    tournament = make_tournament(games=3)
    make_official(tournament, "referee")  # games are published only where a referee is appointed
    return tournament, make_official(tournament, "organizer"), make_entries(tournament, 8)


def test_on_time_check_in_is_recorded_once(day):
    tournament, organizer, entries = day
    for _tap in range(2):
        done = checkin.check_in(tournament, entries[0].pk, user=organizer)
    assert done.entry.status == Entry.Status.CHECKED_IN and done.entry.checked_in_at is not None
    assert AuditEntry.objects.filter(action="entry.checked_in").count() == 1
    assert checkin.counts(tournament).checked_in == 1 and checkin.counts(tournament).waiting == 7


def test_up_to_15_minutes_late_costs_one_vp_and_later_is_not_admitted(day):
    tournament, organizer, entries = day
    late = checkin.check_in(tournament, entries[0].pk, user=organizer, minutes_late=12)
    assert late.penalised and late.entry.status == Entry.Status.CHECKED_IN and late.entry.minutes_late == 12
    assert Penalty.objects.get(entry=entries[0]).vp == 1
    refused = checkin.check_in(tournament, entries[1].pk, user=organizer, minutes_late=16)
    assert refused.not_admitted
    entries[1].refresh_from_db()
    assert entries[1].status == Entry.Status.NOT_ADMITTED and entries[1].checked_in_at is None
    counts = checkin.counts(tournament)
    assert (counts.checked_in, counts.late, counts.not_admitted) == (1, 1, 1)
    with pytest.raises(ValidationError, match="not admitted and cannot be checked in"):
        checkin.check_in(tournament, entries[1].pk, user=organizer)


def test_a_referee_cannot_run_the_check_in(day):
    tournament, _organizer, entries = day
    with pytest.raises(PermissionDenied):
        checkin.check_in(tournament, entries[0].pk, user=make_official(tournament, "referee"))


def test_seating_uses_only_checked_in_players_once_check_in_started(day):
    tournament, organizer, entries = day
    for entry in entries[:6]:
        checkin.check_in(tournament, entry.pk, user=organizer)
    generate_seating(tournament.stages.get().pk, user=organizer, seed=1)
    seated = set(Seat.objects.filter(game__tournament=tournament).values_list("entry_id", flat=True))
    assert seated == {e.pk for e in entries[:6]}


def test_no_shows_only_before_the_first_game(day):
    tournament, organizer, entries = day
    checkin.check_in(tournament, entries[0].pk, user=organizer)
    assert checkin.mark_no_show(tournament, [e.pk for e in entries], user=organizer) == 7
    assert checkin.counts(tournament).no_show == 7
    for entry in entries[1:7]:
        Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.CHECKED_IN)
    generate_seating(tournament.stages.get().pk, user=organizer, seed=1)
    publish_game(tournament.games.order_by("number").first().pk, user=organizer)
    with pytest.raises(ValidationError, match="withdraws instead"):
        checkin.mark_no_show(tournament, [entries[7].pk], user=organizer)


def test_withdrawal_between_games_replans_only_unpublished_games(day):
    tournament, organizer, entries = day
    stage = tournament.stages.get()
    generate_seating(stage.pk, user=organizer, seed=1)
    first = tournament.games.order_by("number").first()
    publish_game(first.pk, user=organizer)
    before_first = sorted(Seat.objects.filter(game=first).values_list("entry_id", "table__number", "position"))
    gone = entries[3]
    result = checkin.withdraw(tournament, gone.pk, user=organizer, reason="Felt unwell")
    assert result.to_do == [] and len(result.replanned) == 1 and "games 2, 3" in result.replanned[0]
    assert sorted(Seat.objects.filter(game=first).values_list("entry_id", "table__number", "position")) == before_first
    later = Seat.objects.filter(game__tournament=tournament).exclude(game=first)
    assert later.exists() and not later.filter(entry=gone).exists()
    assert AuditEntry.objects.get(action="entry.withdrawn").reason == "Felt unwell"


def test_withdrawal_that_cannot_be_replanned_tells_the_organizer(day):
    tournament, organizer, entries = day
    for entry in entries[6:]:
        checkin.withdraw(tournament, entry.pk, user=organizer, reason="Left")
    generate_seating(tournament.stages.get().pk, user=organizer, seed=1)
    result = checkin.withdraw(tournament, entries[0].pk, user=organizer, reason="Left")
    assert result.replanned == [] and "could not be planned again" in result.to_do[0]
    assert Seat.objects.filter(entry=entries[0]).exists()  # nothing was rewritten behind the organizer's back


def test_withdrawal_needs_a_reason_and_happens_once(day):
    tournament, organizer, entries = day
    with pytest.raises(ValidationError):
        checkin.withdraw(tournament, entries[0].pk, user=organizer, reason="  ")
    checkin.withdraw(tournament, entries[0].pk, user=organizer, reason="Ill")
    checkin.withdraw(tournament, entries[0].pk, user=organizer, reason="Ill")
    assert AuditEntry.objects.filter(action="entry.withdrawn").count() == 1


def test_check_in_page_search_tap_and_csv(client, day):
    tournament, organizer, entries = day
    client.force_login(organizer)
    url = f"/organize/{tournament.slug}/check-in/"
    page = client.get(url, {"q": entries[2].player.name})
    assert page.status_code == 200 and entries[2].player.name in page.content.decode()
    response = client.post(f"{url}{entries[2].pk}/", {"action": "late", "minutes_late": "5"},
                           HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200 and "checked in, 5 minutes late: 1 VP deducted" in body
    assert 'hx-swap-oob="true"' in body
    response = client.post(f"{url}{entries[3].pk}/", {"action": "late", "minutes_late": "-3"})
    assert response.status_code == 302 and Entry.objects.get(pk=entries[3].pk).status == Entry.Status.REGISTERED
    csv = client.get(f"/organize/{tournament.slug}/check-in.csv").content.decode("utf-8-sig")
    assert f"{entries[2].player.name},AE,checked_in,checked in,5," in csv
    referee = make_official(tournament, "referee")
    client.force_login(referee)
    assert client.get(url).status_code == 403
    assert client.post(f"{url}{entries[4].pk}/", {"action": "check_in"}).status_code == 403


def test_the_activity_log_tells_check_ins_and_withdrawals(day):
    from web.organize.activity.sentences import described

    tournament, organizer, entries = day
    checkin.check_in(tournament, entries[0].pk, user=organizer, minutes_late=4)
    checkin.withdraw(tournament, entries[1].pk, user=organizer, reason="Ill")
    checkin.mark_no_show(tournament, [entries[2].pk], user=organizer)
    said = {row.entry.action: row.what for row in described(AuditEntry.objects.filter(tournament=tournament))}
    assert said["entry.checked_in"] == f"{entries[0].player.name} checked in, 4 minutes late"
    assert said["entry.withdrawn"] == f"{entries[1].player.name} withdrew"
    assert said["entry.no_show"] == f"{entries[2].player.name} did not come"


# The desk's taps (issue 20 item 1): nothing from the clock, late typed and confirmed, every state undone


class _Forms(HTMLParser):
    """The forms of one desk row as a browser would submit them: (method, action, fields, button text)."""

    def __init__(self, row_id: str):
        super().__init__()
        self.row_id, self.depth, self.forms, self.form, self.button = row_id, 0, [], None, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self.depth == 0 and attrs.get("id") == self.row_id:
            self.depth = 1
        elif self.depth and tag == "li":
            self.depth += 1
        if not self.depth:
            return
        if tag == "form":
            self.form = {"method": attrs.get("method", "get"), "action": attrs.get("action"), "fields": {},
                         "button": ""}
            self.forms.append(self.form)
        elif tag == "input" and self.form is not None and attrs.get("name"):
            self.form["fields"][attrs["name"]] = attrs.get("value", "")
        elif tag == "button" and self.form is not None:
            self.button = self.form

    def handle_endtag(self, tag):
        if self.depth and tag == "li":
            self.depth -= 1
        if tag == "form":
            self.form = None
        if tag == "button":
            self.button = None

    def handle_data(self, data):
        if self.button is not None:
            self.button["button"] += data


def row_forms(html: str, entry) -> list[dict]:
    parser = _Forms(f"checkin-entry-{entry.pk}")
    parser.feed(html)
    return parser.forms


def the_form(html: str, entry, button: str) -> dict:
    return next(f for f in row_forms(html, entry) if f["button"].strip().startswith(button))


@pytest.fixture
def late_afternoon(day, monkeypatch):
    """The trial day's desk: 14:25 on the tournament's day, the official start at 10:00 (265 minutes before)."""
    tournament, organizer, entries = day
    tournament.official_start = time(10, 0)
    tournament.save(update_fields=["official_start"])
    now = timezone.make_aware(datetime.combine(tournament.date, time(14, 25)))
    monkeypatch.setattr(timezone, "now", lambda: now)
    return tournament, organizer, entries


def test_the_desk_never_prefills_the_minutes_late(client, late_afternoon):
    """001 §6 deducts for "tardiness" counted from the official start, but the desk does not know when a player
    arrived: the minutes late box is always empty (the trial day's desk pre-filled 265, and one tap barred the
    player), and the one-tap default is "On time"."""
    tournament, organizer, entries = late_afternoon
    client.force_login(organizer)
    html = client.get(f"/organize/{tournament.slug}/check-in/").content.decode()
    late = next(f for f in row_forms(html, entries[0]) if "minutes_late" in f["fields"])
    assert late["method"] == "get" and late["fields"]["minutes_late"] == ""
    assert 'value="265"' not in html
    on_time = the_form(html, entries[0], "On time")
    assert on_time["method"] == "post" and "minutes_late" not in on_time["fields"]


def test_one_tap_on_time_at_any_hour_is_never_a_penalty(client, late_afternoon):
    """001 §6: a deduction needs tardiness the organizer knows of. Tapping the row's big button, as the desk offers
    it at 14:25 for a 10:00 start, checks the player in on time: no penalty, never "not admitted"."""
    tournament, organizer, entries = late_afternoon
    client.force_login(organizer)
    html = client.get(f"/organize/{tournament.slug}/check-in/").content.decode()
    on_time = the_form(html, entries[0], "On time")
    response = client.post(on_time["action"], on_time["fields"])
    assert response.status_code == 302
    entries[0].refresh_from_db()
    assert entries[0].status == Entry.Status.CHECKED_IN and entries[0].minutes_late == 0
    assert not Penalty.objects.exists()
    # the on-time action ignores minutes sent with it: only the confirmed "late" step takes them
    client.post(f"/organize/{tournament.slug}/check-in/{entries[1].pk}/",
                {**on_time["fields"], "minutes_late": "265"})
    entries[1].refresh_from_db()
    assert entries[1].status == Entry.Status.CHECKED_IN and entries[1].minutes_late == 0


def test_a_moved_official_start_never_turns_taps_into_penalties(client, late_afternoon):
    """001 §6 counts lateness from the official start, and the organizer may move it (the notice is sent again).
    Moving it changes no check-in already made and turns no later tap into a penalty."""
    tournament, organizer, entries = late_afternoon
    client.force_login(organizer)
    url = f"/organize/{tournament.slug}/check-in/"
    checkin.check_in(tournament, entries[0].pk, user=organizer)
    checkin.check_in(tournament, entries[1].pk, user=organizer, minutes_late=7)
    for start in (time(9, 0), time(14, 20), time(16, 0)):
        Tournament.objects.filter(pk=tournament.pk).update(official_start=start)
        html = client.get(url).content.decode()
        entry = entries[2 + [time(9, 0), time(14, 20), time(16, 0)].index(start)]
        on_time = the_form(html, entry, "On time")
        client.post(on_time["action"], on_time["fields"])
    assert list(Entry.objects.filter(pk__in=[e.pk for e in entries[:5]]).order_by("pk")
                .values_list("status", "minutes_late")) == [("checked_in", 0), ("checked_in", 7)] + [
        ("checked_in", 0)] * 3
    assert Penalty.objects.count() == 1 and Penalty.objects.get().entry_id == entries[1].pk


def test_late_needs_the_typed_minutes_and_a_confirmation(client, late_afternoon):
    """001 §6: up to 15 minutes late costs 1 VP, later the player is not admitted. The desk's "late" asks for the
    minutes, then shows what they will do and writes nothing until the organizer confirms (without JavaScript a
    page of its own; with htmx in the row)."""
    tournament, organizer, entries = late_afternoon
    client.force_login(organizer)
    desk = client.get(f"/organize/{tournament.slug}/check-in/").content.decode()
    late = next(f for f in row_forms(desk, entries[0]) if "minutes_late" in f["fields"])
    page = client.get(late["action"], {**late["fields"], "minutes_late": "12"})
    html = page.content.decode()
    assert page.status_code == 200 and "arrived 12 minutes late: 1 VP will come off their total" in html
    assert not Penalty.objects.exists() and not AuditEntry.objects.filter(action__startswith="entry.").exists()
    assert Entry.objects.get(pk=entries[0].pk).status == Entry.Status.REGISTERED
    confirm = the_form(html, entries[0], "Confirm: late, 12 minutes")
    assert client.post(confirm["action"], confirm["fields"]).status_code == 302
    entries[0].refresh_from_db()
    assert entries[0].status == Entry.Status.CHECKED_IN and entries[0].minutes_late == 12
    assert Penalty.objects.get().vp == 1
    html = client.get(f"/organize/{tournament.slug}/check-in/{entries[1].pk}/late/", {"minutes_late": "16"},
                      HTTP_HX_REQUEST="true").content.decode()
    assert "more than 15: they will not be admitted" in html and "<html" not in html
    assert Entry.objects.get(pk=entries[1].pk).status == Entry.Status.REGISTERED
    confirm = the_form(html, entries[1], "Confirm: not admitted")
    client.post(confirm["action"], confirm["fields"], HTTP_HX_REQUEST="true")
    assert Entry.objects.get(pk=entries[1].pk).status == Entry.Status.NOT_ADMITTED
    for typed in ("", "0", "-4", "abc", "1441"):
        html = client.get(f"/organize/{tournament.slug}/check-in/{entries[2].pk}/late/",
                          {"minutes_late": typed}).content.decode()
        assert "Type the minutes late, a number from 1 to 1440." in html and "Confirm:" not in html
    assert AuditEntry.objects.filter(action__in=["entry.checked_in", "entry.not_admitted"]).count() == 2


@pytest.mark.parametrize("ruleset", ["cwc-2025", "lord-of-catan"])
def test_the_desk_offers_no_lateness_where_the_rules_have_none(client, ruleset):
    """004 (world) and 003 (Lord of Catan) have no lateness penalty; the desk asks the ruleset registry: one "Check
    in" button, no "late" step, no "Late (1 VP)" count, and the confirmation step refuses."""
    tournament = make_tournament(ruleset=ruleset, official_start=time(10, 0))
    organizer = make_official(tournament, "organizer")
    entry = make_entries(tournament, 1)[0]
    client.force_login(organizer)
    html = client.get(f"/organize/{tournament.slug}/check-in/").content.decode()
    assert [f["button"].split(":")[0].strip() for f in row_forms(html, entry)][0] == "Check in"
    assert not any("minutes_late" in f["fields"] for f in row_forms(html, entry))
    assert "Late (1 VP)" not in html and "These rules have no late-arrival penalty." in html
    html = client.get(f"/organize/{tournament.slug}/check-in/{entry.pk}/late/", {"minutes_late": "5"}).content.decode()
    assert "have no late-arrival penalty" in html and "Confirm:" not in html
    client.post(f"/organize/{tournament.slug}/check-in/{entry.pk}/", {"action": "late", "minutes_late": "5"})
    entry.refresh_from_db()
    assert entry.status == Entry.Status.REGISTERED and not Penalty.objects.exists()
    # Checked in on time, then a late step posted again (another tab): the check-in stands, nothing deducted.
    client.post(f"/organize/{tournament.slug}/check-in/{entry.pk}/", {"action": "check_in"})
    response = client.post(f"/organize/{tournament.slug}/check-in/{entry.pk}/",
                           {"action": "late", "minutes_late": "5"}, follow=True)
    assert f"{entry.player.name} checked in." in response.content.decode()
    entry.refresh_from_db()
    assert entry.status == Entry.Status.CHECKED_IN and not Penalty.objects.exists()


def undo(tournament, entry, organizer, reason="Tapped the wrong row"):
    return checkin.undo(tournament, entry.pk, user=organizer, reason=reason)


def test_every_check_in_state_is_undone_with_a_reason_and_audited(day):
    """Each state the desk sets returns the player to waiting (registered), with the organizer's reason in the audit
    trail; a late check-in's 1 VP (001 §6) is withdrawn through the penalties service, audited there too."""
    tournament, organizer, entries = day
    on_time, late, refused, absent, gone = entries[:5]
    checkin.check_in(tournament, on_time.pk, user=organizer)
    checkin.check_in(tournament, late.pk, user=organizer, minutes_late=9)
    checkin.check_in(tournament, refused.pk, user=organizer, minutes_late=40)
    checkin.mark_no_show(tournament, [absent.pk], user=organizer)
    checkin.check_in(tournament, gone.pk, user=organizer)
    checkin.withdraw(tournament, gone.pk, user=organizer, reason="Left")
    with pytest.raises(ValidationError, match="reason"):
        undo(tournament, on_time, organizer, reason="  ")
    with pytest.raises(PermissionDenied):
        undo(tournament, on_time, make_official(tournament, "referee"))
    for entry in (on_time, late, refused, absent):
        undo(tournament, entry, organizer)
        entry.refresh_from_db()
        assert (entry.status, entry.minutes_late, entry.checked_in_at) == (Entry.Status.REGISTERED, 0, None)
    undo(tournament, gone, organizer)
    gone.refresh_from_db()
    assert gone.status == Entry.Status.CHECKED_IN  # back to where the withdrawal found them
    penalty = Penalty.objects.get(entry=late)
    assert penalty.withdrawn_at is not None and penalty.withdrawal_reason == "Tapped the wrong row"
    audit = sorted(AuditEntry.objects.filter(reason="Tapped the wrong row").values_list("action", "object_id"))
    assert audit == sorted([("entry.check_in_undone", on_time.pk), ("entry.check_in_undone", late.pk),
                            ("penalty.withdrawn", penalty.pk), ("entry.not_admitted_undone", refused.pk),
                            ("entry.no_show_undone", absent.pk), ("entry.withdrawal_undone", gone.pk)])
    assert checkin.counts(tournament).late == 0 and checkin.counts(tournament).checked_in == 1
    assert undo(tournament, on_time, organizer).said == []  # nothing left to undo: changes nothing
    checkin.check_in(tournament, late.pk, user=organizer, minutes_late=4)  # the rule applies afresh
    assert Penalty.objects.filter(entry=late, withdrawn_at__isnull=True).count() == 1


def test_undoing_a_withdrawal_plans_the_unpublished_games_again_with_the_player(day):
    """Withdrawn by mistake during game 1: games 2 and 3 were planned again without the player; undoing the
    withdrawal plans them again with them (the published game 1, where they sit, stays as it is)."""
    tournament, organizer, entries = day
    for entry in entries:
        checkin.check_in(tournament, entry.pk, user=organizer)
    generate_seating(tournament.stages.get().pk, user=organizer, seed=1)
    first = tournament.games.order_by("number").first()
    publish_game(first.pk, user=organizer)
    gone = entries[3]
    checkin.withdraw(tournament, gone.pk, user=organizer, reason="Wrong row")
    assert not Seat.objects.filter(entry=gone).exclude(game=first).exists()
    done = undo(tournament, gone, organizer)
    assert any("planned again with" in said for said in done.said) and done.to_do == []
    later = Seat.objects.filter(entry=gone, game__tournament=tournament).exclude(game=first)
    assert sorted(later.values_list("game__number", flat=True)) == [2, 3]
    assert Seat.objects.filter(entry=gone, game=first).exists()


def test_a_player_who_missed_a_published_game_cannot_come_back(day):
    """001 §6 "late comers cannot participate": once a game was published without the player (withdrawn, not come,
    not admitted), undoing that state is refused with what to do instead; nothing changes."""
    tournament, organizer, entries = day
    for entry in entries[:7]:
        checkin.check_in(tournament, entry.pk, user=organizer)
    checkin.mark_no_show(tournament, [entries[7].pk], user=organizer)
    generate_seating(tournament.stages.get().pk, user=organizer, seed=1)
    publish_game(tournament.games.order_by("number").first().pk, user=organizer)
    with pytest.raises(ValidationError, match="Game 1 was published without .*take that game back to re-plan"):
        undo(tournament, entries[7], organizer)
    entries[7].refresh_from_db()
    assert entries[7].status == Entry.Status.NO_SHOW
    assert not AuditEntry.objects.filter(action="entry.no_show_undone").exists()


def test_a_check_in_of_a_player_who_played_stands_but_its_lateness_can_be_withdrawn(day):
    """Once a player has played, "undo check-in" would unseat history: refused. A late arrival's 1 VP (001 §6) can
    still be withdrawn from the row (the minutes were wrong); the player stays checked in."""
    tournament, organizer, entries = day
    for n, entry in enumerate(entries):
        checkin.check_in(tournament, entry.pk, user=organizer, minutes_late=6 if n == 1 else 0)
    generate_seating(tournament.stages.get().pk, user=organizer, seed=1)
    publish_game(tournament.games.order_by("number").first().pk, user=organizer)
    with pytest.raises(ValidationError, match="has played .game 1.: the check-in stands"):
        undo(tournament, entries[0], organizer)
    done = undo(tournament, entries[1], organizer, reason="Arrived on time, the clock was wrong")
    entries[1].refresh_from_db()
    assert entries[1].status == Entry.Status.CHECKED_IN and entries[1].minutes_late == 0
    assert Penalty.objects.get(entry=entries[1]).withdrawn_at is not None and "stays checked in" in done.said[-1]


def test_the_desk_row_offers_the_undo_of_each_state(client, day):
    """The undo is on the same row as the state, asks for a reason, and works without JavaScript and with htmx."""
    tournament, organizer, entries = day
    checkin.check_in(tournament, entries[0].pk, user=organizer, minutes_late=3)
    checkin.withdraw(tournament, entries[1].pk, user=organizer, reason="Ill")
    client.force_login(organizer)
    html = client.get(f"/organize/{tournament.slug}/check-in/").content.decode()
    undo_late = the_form(html, entries[0], "Undo the late check-in")
    assert undo_late["method"] == "post" and undo_late["fields"]["reason"] == ""
    refused = client.post(undo_late["action"], undo_late["fields"], follow=True).content.decode()
    assert "This field is required." in refused and Entry.objects.get(pk=entries[0].pk).minutes_late == 3
    body = client.post(undo_late["action"], {**undo_late["fields"], "reason": "Wrong player"},
                       HTTP_HX_REQUEST="true").content.decode()
    assert "The late arrival of" in body and "Check-in of" in body and 'hx-swap-oob="true"' in body
    assert Entry.objects.get(pk=entries[0].pk).status == Entry.Status.REGISTERED
    undo_gone = the_form(html, entries[1], "Undo the withdrawal")
    client.post(undo_gone["action"], {**undo_gone["fields"], "reason": "Came back before game 1"})
    assert Entry.objects.get(pk=entries[1].pk).status == Entry.Status.REGISTERED


def test_the_activity_log_tells_the_undos(day):
    from web.organize.activity.sentences import described

    tournament, organizer, entries = day
    checkin.mark_no_show(tournament, [entries[0].pk], user=organizer)
    undo(tournament, entries[0], organizer)
    checkin.withdraw(tournament, entries[1].pk, user=organizer, reason="Ill")
    undo(tournament, entries[1], organizer)
    said = {row.entry.action: row.what for row in described(AuditEntry.objects.filter(tournament=tournament))}
    assert said["entry.no_show_undone"] == f"“Did not come” of {entries[0].player.name} undone"
    assert said["entry.withdrawal_undone"] == f"Withdrawal of {entries[1].player.name} undone"


def test_the_lateness_rule_of_the_desk_is_the_registrys(client, day, monkeypatch):
    """001 §6 through the ruleset registry: the desk's numbers (15 minutes, 1 VP) are the rule's, not its own."""
    from engines.rulesets import RULESETS, LatenessRule

    tournament, organizer, entries = day
    monkeypatch.setitem(RULESETS, "cnc-2022", dataclasses.replace(
        RULESETS["cnc-2022"], lateness=LatenessRule(vp=2, admitted_minutes=10)))
    client.force_login(organizer)
    html = client.get(f"/organize/{tournament.slug}/check-in/{entries[0].pk}/late/",
                      {"minutes_late": "11"}).content.decode()
    assert "more than 10: they will not be admitted" in html
    html = client.get(f"/organize/{tournament.slug}/check-in/").content.decode()
    assert "Up to 10 minutes late costs 2 VP" in html and "Late (2 VP)" in html
