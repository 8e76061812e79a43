"""Penalties by the rules: disqualification timing, collusion incidents and rulings, lateness, request keys.

Seeds: 001 (national championships 2022) §6; 004 (world championship) §1.2.4, §1.2.5, §3.0.13.
"""
import uuid

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from audit.models import AuditEntry
from championships.models import Entry
from ranking.standings import compute_standings
from results.models import CollusionRuling, Penalty, RecordSheet
from results.penalties import ReusedRequestKey, record_lateness, record_penalty, rule_on_collusion
from results.selectors import pending_collusion_rulings
from results.sheets import SheetInput, save_entry, sign
from tests.factories import make_entries, make_game, make_official, make_tournament, play
from web.organize.activity.sentences import described

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    tournament = make_tournament(slug="penalties")
    return make_game(tournament, [make_entries(tournament, 4), make_entries(tournament, 4)])


@pytest.fixture
def world_game():
    """A game under the world rules, whose rules-related disqualifications end with the last signature."""
    tournament = make_tournament(slug="world-penalties", ruleset="cwc-2025")
    return make_game(tournament, [make_entries(tournament, 4), make_entries(tournament, 4)])


def seated(game, table=1):
    return [seat.entry for seat in game.tables.get(number=table).seats.order_by("position").select_related("entry")]


def enter_scores(table, user):
    seats = list(table.seats.order_by("position"))
    return save_entry(table.sheet.pk, SheetInput(dict(zip((s.entry_id for s in seats), [10, 7, 6, 5]))), user=user,
                      base_version=0)


def sign_all(table, user, leave_out=0):
    sheet = enter_scores(table, user)
    seats = list(table.seats.order_by("position"))
    for seat in seats[: len(seats) - leave_out]:
        sheet = sign(sheet.pk, seat.entry_id, user=user, method="tap", version=sheet.version)
    return sheet


def penalties_url(tournament):
    return reverse("referee-penalties", kwargs={"slug": tournament.slug})


def sentence(action):
    return described([AuditEntry.objects.get(action=action)])[0].what


# Disqualification timing


def test_rules_disqualification_is_recorded_while_a_signature_is_missing(game):
    """004 §1.2.4: a rules-related disqualification during the game or right after it, before all have signed."""
    referee = make_official(game.tournament)
    table = game.tables.get(number=1)
    cheat = seated(game)[0]
    assert sign_all(table, referee, leave_out=1).status == RecordSheet.Status.SIGNING
    penalty = record_penalty(cheat.pk, user=referee, kind="disqualification", ground="rules", game=game,
                             reason="Hid a resource card under the board")
    cheat.refresh_from_db()
    assert cheat.status == Entry.Status.DISQUALIFIED and penalty.ground == "rules"
    assert sentence("penalty.disqualification") == f"{cheat.player.name} disqualified for breaking the game's rules"


def test_rules_disqualification_is_refused_once_every_player_has_signed(world_game):
    """004 §1.2.4: "Rules-related disqualification is not possible after all players have signed the record sheet"."""
    game = world_game
    referee = make_official(game.tournament)
    table = game.tables.get(number=1)
    cheat = seated(game)[0]
    assert sign_all(table, referee).status == RecordSheet.Status.SIGNED
    with pytest.raises(ValidationError) as refused:
        record_penalty(cheat.pk, user=referee, kind="disqualification", ground="rules", game=game,
                       reason="Moved the robber twice")
    assert "can no longer be disqualified for breaking the game's rules" in refused.value.message_dict["ground"][0]
    cheat.refresh_from_db()
    assert cheat.status == Entry.Status.REGISTERED and not Penalty.objects.exists()


def test_rules_disqualification_names_a_started_game_the_player_sat_in(game):
    """001 §6: "A disqualification can only be made during an active game or immediately after finishing a game"."""
    referee = make_official(game.tournament)
    player, stranger = seated(game)[0], seated(game, 2)[0]
    with pytest.raises(ValidationError) as no_game:
        record_penalty(player.pk, user=referee, kind="disqualification", ground="rules", reason="cheating")
    assert "name the game" in no_game.value.message_dict["game"][0]
    other_game = make_game(game.tournament, [seated(game, 2)], number=2)
    with pytest.raises(ValidationError) as not_seated:
        record_penalty(player.pk, user=referee, kind="disqualification", ground="rules", game=other_game,
                       reason="cheating")
    assert "has no seat in game 2" in not_seated.value.message_dict["game"][0]
    other_game.status = other_game.Status.PLANNED
    other_game.save()
    with pytest.raises(ValidationError) as planned:
        record_penalty(stranger.pk, user=referee, kind="disqualification", ground="rules", game=other_game,
                       reason="cheating")
    assert "has not started" in planned.value.message_dict["game"][0]


def test_a_disqualification_says_why_and_only_a_disqualification_has_a_ground(game):
    """004 §1.2.4 distinguishes the two grounds; the database holds the invariant too."""
    referee = make_official(game.tournament)
    player = seated(game)[0]
    with pytest.raises(ValidationError) as missing:
        record_penalty(player.pk, user=referee, kind="disqualification", reason="cheating")
    assert "Say why" in missing.value.message_dict["ground"][0]
    with pytest.raises(ValidationError) as stray:
        record_penalty(player.pk, user=referee, kind="warning", ground="rules", reason="slow")
    assert "Only a disqualification has a ground" in stray.value.message_dict["ground"][0]
    for kind, ground in (("disqualification", ""), ("warning", "conduct")):
        with pytest.raises(IntegrityError), transaction.atomic():
            Penalty.objects.create(tournament=game.tournament, entry=player, kind=kind, ground=ground, reason="r",
                                   recorded_by=referee)


def test_the_referee_sees_in_the_form_why_a_rules_disqualification_is_refused(client, world_game):
    """004 §1.2.4: the refusal after every signature is shown next to the ground, the typed values kept."""
    game = world_game
    referee = make_official(game.tournament)
    sign_all(game.tables.get(number=1), referee)
    cheat = seated(game)[2]
    client.force_login(referee)
    response = client.post(penalties_url(game.tournament), {
        "entry": cheat.pk, "kind": "disqualification", "ground": "rules", "game": game.pk,
        "reason": "Swapped a number token"})
    html = response.content.decode()
    assert response.status_code == 422
    assert "has signed the record sheet" in html and "Swapped a number token" in html
    assert html.index("has signed the record sheet") > html.index('name="ground"')  # under its field
    assert not Penalty.objects.exists()


# Collusion


def test_a_collusion_warning_goes_to_both_players_as_one_incident(game):
    """001 §6: collusion "will result in a warning to both players"; 004 §3.0.13: "both players are guilty"."""
    referee = make_official(game.tournament)
    first, second = seated(game)[:2]
    penalty = record_penalty(first.pk, user=referee, kind="collusion", partner_id=second.pk, game=game,
                             reason="Gave a free ore in a two-step trade")
    rows = list(Penalty.objects.order_by("pk"))
    assert [(p.entry_id, p.kind, p.vp) for p in rows] == [(first.pk, "collusion", 0), (second.pk, "collusion", 0)]
    assert rows[0].incident == rows[1].incident == penalty.incident is not None
    assert AuditEntry.objects.filter(action="penalty.collusion").count() == 1
    assert sentence("penalty.collusion") == f"Collusion warning for {first.player.name} and {second.player.name}"


def test_collusion_names_a_second_player_of_the_same_table(game):
    """001 §6 and 004 §3.0.13: collusion is between two players; in a game, they sat at one table."""
    referee = make_official(game.tournament)
    first, other_table = seated(game)[0], seated(game, 2)[0]
    for partner, field, text in ((None, "partner", "Name the other player"),
                                 (first.pk, "partner", "two different players"),
                                 (other_table.pk, "partner", "did not play at the same table in game 1")):
        with pytest.raises(ValidationError) as refused:
            record_penalty(first.pk, user=referee, kind="collusion", partner_id=partner, game=game, reason="trade")
        assert text in refused.value.message_dict[field][0]
    with pytest.raises(ValidationError) as stray:
        record_penalty(first.pk, user=referee, kind="warning", partner_id=other_table.pk, reason="slow")
    assert "Only a collusion warning names a second player" in stray.value.message_dict["partner"][0]
    with pytest.raises(IntegrityError), transaction.atomic():
        Penalty.objects.create(tournament=game.tournament, entry=first, kind="collusion", reason="r",
                               recorded_by=referee)  # a collusion warning without its incident
    assert not Penalty.objects.exists()


def test_a_second_collusion_warning_asks_the_referee_to_decide_and_records_a_disqualification(
        client, game, django_capture_on_commit_callbacks):
    """001 §6: "In case of a repeated incident, a disqualification decision can be taken. The referee's ruling is
    final, and all players must accept it"."""
    referee = make_official(game.tournament)
    first, second, third = seated(game)[:3]
    record_penalty(first.pk, user=referee, kind="collusion", partner_id=second.pk, game=game, reason="Free wool")
    client.force_login(referee)
    url = penalties_url(game.tournament)
    assert "collusion warnings: decide whether to disqualify" not in client.get(url).content.decode()
    response = client.post(url, {"entry": third.pk, "kind": "collusion", "partner": first.pk, "game": game.pk,
                                 "reason": "Port service for a free brick"}, follow=True)
    html = response.content.decode()
    assert f"Collusion warning recorded for {third.player.name} and {first.player.name}." in html
    assert f"<bdi>{first.player.name}</bdi> now has 2 collusion warnings: decide whether to disqualify" in html
    assert f"<bdi>{second.player.name}</bdi> now has" not in html
    assert f"<bdi>{third.player.name}</bdi> now has" not in html
    (pending,) = pending_collusion_rulings(game.tournament)
    assert pending.warning.entry_id == first.pk and pending.count == 2
    assert f'name="ruling" value="{pending.warning.pk}"' in html and "Free wool" in html
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"ruling": pending.warning.pk, f"ruling{pending.warning.pk}-disqualify": "yes",
                                     f"ruling{pending.warning.pk}-reason": "Second collusion in one game"})
    assert response.status_code == 302
    first.refresh_from_db()
    ruling = CollusionRuling.objects.get()
    assert first.status == Entry.Status.DISQUALIFIED and ruling.disqualification.ground == "conduct"
    assert ruling.disqualification.entry_id == first.pk and ruling.warning == pending.warning
    assert sentence("penalty.collusion_ruling") == (
        f"Repeated collusion (2 warnings): {first.player.name} disqualified by the referee's ruling")
    assert not pending_collusion_rulings(game.tournament)
    assert "decide whether to disqualify" not in client.get(url).content.decode()


def test_the_referee_may_rule_not_to_disqualify_and_that_decision_is_recorded_once(game):
    """004 §1.2.5: collusion "is not a justification for disqualification" by itself; the ruling is recorded anyway."""
    referee = make_official(game.tournament)
    first, second = seated(game)[:2]
    record_penalty(first.pk, user=referee, kind="collusion", partner_id=second.pk, reason="Free grain")
    with pytest.raises(ValidationError) as early:
        rule_on_collusion(Penalty.objects.get(entry=first).pk, user=referee, disqualify=False, reason="no")
    assert "first collusion warning" in early.value.messages[0]
    record_penalty(second.pk, user=referee, kind="collusion", partner_id=first.pk, reason="Free ore again")
    pending = pending_collusion_rulings(game.tournament)
    assert sorted(p.warning.entry_id for p in pending) == sorted([first.pk, second.pk])
    warning = next(p.warning for p in pending if p.warning.entry_id == first.pk)
    ruling = rule_on_collusion(warning.pk, user=referee, disqualify=False, reason="Mutual benefit in the game")
    assert rule_on_collusion(warning.pk, user=referee, disqualify=False, reason="double tap") == ruling
    with pytest.raises(ValidationError):
        rule_on_collusion(warning.pk, user=referee, disqualify=True, reason="changed my mind")
    first.refresh_from_db()
    assert first.status == Entry.Status.REGISTERED and ruling.disqualification is None
    assert [p.warning.entry_id for p in pending_collusion_rulings(game.tournament)] == [second.pk]
    assert AuditEntry.objects.filter(action="penalty.collusion_ruling").count() == 1
    assert sentence("penalty.collusion_ruling") == (
        f"Repeated collusion (2 warnings): the referee ruled not to disqualify {first.player.name}")


# Lateness


def test_up_to_15_minutes_late_costs_exactly_one_vp(game):
    """001 §6: "1 victory point deducted from their total scores for the first 15 minutes of tardiness"."""
    referee = make_official(game.tournament)
    late = seated(game)[0]
    done = record_lateness(late.pk, 15, user=referee)
    late.refresh_from_db()
    assert done.penalty.vp == 1 and done.penalty.kind == "lateness" and not done.not_admitted
    assert late.minutes_late == 15 and late.status == Entry.Status.REGISTERED
    assert done.penalty.reason == "15 minutes late"
    assert sentence("penalty.lateness") == f"Late arrival (15 minutes): {late.player.name} loses 1 VP"
    play(game.tables.get(number=1), [10, 7, 6, 5], referee)
    rows = {row["entry"]: row for row in compute_standings(game.tournament)}
    assert rows[late.pk]["total_vp"] == 10 - 1


def test_more_than_15_minutes_late_is_not_admitted(game):
    """001 §6: "The tournament will start after 15 minutes from official time and late comers cannot participate"."""
    referee = make_official(game.tournament)
    late = make_entries(game.tournament, 1)[0]  # not seated: a player who has played is never refused (below)
    done = record_lateness(late.pk, 16, user=referee)
    late.refresh_from_db()
    assert done.not_admitted and done.penalty is None and not Penalty.objects.exists()
    assert late.status == Entry.Status.NOT_ADMITTED and late.minutes_late == 16
    entry = AuditEntry.objects.get(action="entry.not_admitted")
    assert entry.before == {"status": "registered", "minutes_late": 0}
    assert sentence("entry.not_admitted") == f"{late.player.name} not admitted: 16 minutes late, more than 15"
    assert record_lateness(late.pk, 16, user=referee).not_admitted  # the same report again changes nothing
    assert AuditEntry.objects.filter(action="entry.not_admitted").count() == 1
    with pytest.raises(ValidationError):
        record_lateness(late.pk, 5, user=referee)


def test_on_time_records_nothing(game):
    """001 §6: only tardiness is penalised; 0 minutes late is on time."""
    referee = make_official(game.tournament)
    player = seated(game)[0]
    done = record_lateness(player.pk, 0, user=referee)
    player.refresh_from_db()
    assert done.penalty is None and not done.not_admitted and player.minutes_late == 0
    assert not Penalty.objects.exists() and not AuditEntry.objects.filter(action__startswith="penalty").exists()


def test_a_late_arrival_is_one_vp_and_recorded_once_per_tournament(game):
    """001 §6: "1 victory point deducted from their total scores for the first 15 minutes of tardiness", counted
    from the tournament's official start: 1 VP, not a typed amount, and once per player, never once per game."""
    referee = make_official(game.tournament)
    late = seated(game)[0]
    with pytest.raises(ValidationError) as three:
        record_penalty(late.pk, user=referee, kind="lateness", vp=3, reason="20 minutes late")
    assert "exactly 1 VP" in three.value.message_dict["vp"][0]
    record_lateness(late.pk, 10, user=referee)
    with pytest.raises(ValidationError) as again:
        record_lateness(late.pk, 12, user=referee)
    assert "already recorded" in again.value.message_dict["kind"][0]
    with pytest.raises(ValidationError):
        record_penalty(late.pk, user=referee, kind="lateness", vp=1, reason="again")
    with pytest.raises(ValidationError) as in_game:
        record_lateness(late.pk, 5, user=referee, game=game)
    assert "official start" in in_game.value.message_dict["game"][0]
    assert Penalty.objects.filter(entry=late).count() == 1
    with pytest.raises(IntegrityError), transaction.atomic():  # the database refuses a second one, game or not
        Penalty.objects.create(tournament=game.tournament, entry=late, kind="lateness", vp=1, game=game,
                               reason="r", recorded_by=referee)
    with pytest.raises(IntegrityError), transaction.atomic():
        Penalty.objects.create(tournament=game.tournament, entry=seated(game)[1], kind="lateness", vp=3,
                               reason="r", recorded_by=referee)


def test_lateness_does_not_stack_per_game(game):
    """001 §6: one deduction for arriving late to the tournament. The trial day's player lost 3 VP (1 at the
    start, 1 for game 1, 1 for game 2); now the late arrival costs 1 VP in the standings, whatever is tried."""
    referee = make_official(game.tournament)
    late = seated(game)[0]
    second = make_game(game.tournament, [seated(game, 1), seated(game, 2)], number=2)
    record_lateness(late.pk, 5, user=referee)
    for number in (game, second):
        with pytest.raises(ValidationError):
            record_lateness(late.pk, 5, user=referee, game=number)
    play(game.tables.get(number=1), [10, 7, 6, 5], referee)
    rows = {row["entry"]: row for row in compute_standings(game.tournament)}
    assert rows[late.pk]["total_vp"] == 10 - 1


@pytest.mark.parametrize("ruleset", ["cwc-2025", "lord-of-catan"])
def test_rules_without_a_lateness_penalty_refuse_it_everywhere(client, ruleset):
    """004 (world championship) and 003 (Lord of Catan) have no lateness rule: only 001 §6 deducts for tardiness.
    The registry says so, and the service, the referee's penalty form and its page all ask it."""
    tournament = make_tournament(slug=f"no-lateness-{ruleset}", ruleset=ruleset)
    player = make_entries(tournament, 1)[0]
    referee = make_official(tournament)
    with pytest.raises(ValidationError) as refused:
        record_lateness(player.pk, 5, user=referee)
    assert "no late-arrival penalty" in " ".join(refused.value.messages)
    with pytest.raises(ValidationError) as refused:
        record_lateness(player.pk, 40, user=referee)
    assert "no late-arrival penalty" in " ".join(refused.value.messages)
    with pytest.raises(ValidationError):
        record_penalty(player.pk, user=referee, kind="lateness", vp=1, reason="5 minutes late")
    player.refresh_from_db()
    assert player.status == Entry.Status.REGISTERED and not Penalty.objects.exists()
    client.force_login(referee)
    page = client.get(penalties_url(tournament)).content.decode()
    assert 'value="lateness"' not in page and "Minutes late" not in page
    response = client.post(penalties_url(tournament), {"entry": player.pk, "kind": "lateness", "minutes": 5})
    assert response.status_code == 422 and not Penalty.objects.exists()


def test_not_admitted_is_refused_for_a_player_who_has_played(game):
    """001 §6: "late comers cannot participate" decides admission at the start. A player who already sat at a
    published game (or has a score) has participated: recording them more than 15 minutes late (for game 3, say)
    would silently drop them from qualification while they stay in the standings, so it is refused."""
    referee = make_official(game.tournament)
    played = seated(game)[0]
    with pytest.raises(ValidationError) as refused:
        record_lateness(played.pk, 20, user=referee)
    assert f"{played.player.name} has already played (game 1)" in " ".join(refused.value.messages)
    played.refresh_from_db()
    assert played.status == Entry.Status.REGISTERED and played.minutes_late == 0
    assert not AuditEntry.objects.filter(action="entry.not_admitted").exists()


def test_the_penalty_form_takes_minutes_for_a_late_arrival(client, game):
    """001 §6: the referee types the minutes; the form applies the rule (1 VP, or not admitted)."""
    referee = make_official(game.tournament)
    on_time, late = seated(game)[:2]
    very_late = make_entries(game.tournament, 1)[0]  # not seated yet: admission is still open
    client.force_login(referee)
    url = penalties_url(game.tournament)
    response = client.post(url, {"entry": late.pk, "kind": "lateness", "reason": ""})
    assert response.status_code == 422 and "Give the minutes late" in response.content.decode()
    # The national form has no VP field (lateness is its only VP off): a VP posted anyway changes nothing.
    html = client.post(url, {"entry": late.pk, "kind": "lateness", "minutes": 9, "vp": 3},
                       follow=True).content.decode()
    assert f"Late arrival recorded for {late.player.name}: 9 minutes, 1 VP off." in html
    html = client.post(url, {"entry": very_late.pk, "kind": "lateness", "minutes": 25}, follow=True).content.decode()
    assert f"{very_late.player.name} arrived 25 minutes late, more than 15: not admitted." in html
    html = client.post(url, {"entry": on_time.pk, "kind": "lateness", "minutes": 0}, follow=True).content.decode()
    assert f"{on_time.player.name} was on time: nothing was recorded." in html
    assert list(Penalty.objects.values_list("entry_id", "vp", "reason")) == [(late.pk, 1, "9 minutes late")]
    very_late.refresh_from_db()
    assert very_late.status == Entry.Status.NOT_ADMITTED
    response = client.post(url, {"entry": on_time.pk, "kind": "warning", "minutes": 4, "reason": "noise"})
    assert response.status_code == 422 and "Minutes late are for a late arrival only" in response.content.decode()


# Request keys


def test_a_request_key_used_for_another_penalty_is_refused(game):
    """A resubmitted form records its penalty once (001 §6 penalties are given once); other content is refused."""
    referee = make_official(game.tournament)
    first, second = seated(game)[:2]
    key = uuid.uuid4()
    penalty = record_penalty(first.pk, user=referee, kind="warning", reason="Slow play", request_key=key)
    assert record_penalty(first.pk, user=referee, kind="warning", reason="Slow play", request_key=key) == penalty
    for changed in ({"entry_id": second.pk}, {"kind": "vp_deduction", "vp": 1}, {"reason": "Other"}):
        arguments = {"entry_id": first.pk, "kind": "warning", "reason": "Slow play", **changed}
        entry_id = arguments.pop("entry_id")
        with pytest.raises(ReusedRequestKey) as refused:
            record_penalty(entry_id, user=referee, request_key=key, **arguments)
        assert f"already used to record a penalty for {first.player.name} (warning)" in refused.value.messages[0]
    with pytest.raises(ReusedRequestKey):
        record_lateness(second.pk, 5, user=referee, request_key=key)
    with pytest.raises(ReusedRequestKey):
        record_lateness(second.pk, 30, user=referee, request_key=key)
    assert Penalty.objects.count() == 1 and AuditEntry.objects.filter(action__startswith="penalty").count() == 1
    second.refresh_from_db()
    assert second.status == Entry.Status.REGISTERED


def test_the_form_says_its_key_was_used_and_a_new_submission_records_the_new_penalty(client, game):
    """The referee who went back and changed the player sees it refused, then records it on purpose."""
    referee = make_official(game.tournament)
    first, second = seated(game)[:2]
    client.force_login(referee)
    url = penalties_url(game.tournament)
    key = client.get(url).content.decode().split('name="request_key" value="')[1].split('"')[0]
    data = {"entry": first.pk, "kind": "warning", "reason": "Talked across tables", "request_key": key}
    assert client.post(url, data).status_code == 302
    response = client.post(url, {**data, "entry": second.pk})
    html = response.content.decode()
    assert response.status_code == 422 and "was already used to record a penalty for" in html
    assert "Nothing was recorded now" in html and Penalty.objects.count() == 1
    new_key = html.split('name="request_key" value="')[1].split('"')[0]
    assert new_key != key
    assert client.post(url, {**data, "entry": second.pk, "request_key": new_key}).status_code == 302
    assert sorted(Penalty.objects.values_list("entry_id", flat=True)) == sorted([first.pk, second.pk])
