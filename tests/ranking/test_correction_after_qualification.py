"""A correction that would change what was already decided from the results is refused (issue 32 item 8c).

Seeds: 001 §5, "Once the game record sheet has been signed by all players, further protest is not permitted, and
the results cannot be further altered"; the app's correction is a transcription fix (docs/rules.md I-23). 001 §3
sends each qualifier's top N to the finals; 004 §1.1.5 seats the semifinals from the preliminary ranking.
"""
from datetime import time

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from audit.models import AuditEntry
from championships.services import create_championship_from_preset, enter_player
from ranking.qualification import advance_qualifiers, clear_seeded_stage, seat_seeded_stage
from ranking.standings import compute_standings
from results.models import SheetRevision
from results.publishing import publish_game, unpublish_game
from results.sheets import SheetInput, correct
from tests.factories import make_admin, make_game, make_official, make_player, play

pytestmark = pytest.mark.django_db


def corrected(table, vps, **times) -> SheetInput:
    seats = list(table.seats.order_by("position"))
    return SheetInput({s.entry_id: vp for s, vp in zip(seats, vps)}, **times)


def test_a_correction_that_would_change_who_went_to_the_finals_is_refused(client):
    """001 §3 (UAE): the Dubai qualifier's top 2 (here) were sent to the finals. A correction that makes P1 the
    winner of table 1 would have sent P1 instead of P0: nothing rechecked it, so the finals kept a player the
    corrected results do not qualify. Sending cannot be undone, so it is refused, naming who would change; a fix
    that changes nobody's place (P3's VP at the bottom) is made."""
    dubai, _abu_dhabi, finals = create_championship_from_preset("uae-2022", user=make_admin()).tournaments.order_by(
        "date")
    dubai.advance_count = 2
    dubai.save()
    organizer = make_official(dubai, "organizer")
    referee = make_official(dubai)
    entries = [enter_player(make_player(f"P{i}"), dubai, user=make_admin()) for i in range(8)]
    game = make_game(dubai, [entries[:4], entries[4:]])
    first, second = game.tables.order_by("number")
    sheet = play(first, [10, 8, 6, 4], referee)
    play(second, [10, 7, 5, 3], referee)
    sent = advance_qualifiers(dubai.pk, user=make_admin())
    assert {e.player.name for e in sent} == {"P0", "P4"}
    with pytest.raises(ValidationError) as refused:
        correct(sheet.pk, corrected(first, [8, 10, 6, 4]), user=organizer, reason="The paper names P1",
                base_version=sheet.version)
    assert refused.value.messages == [
        f"{dubai.name} sent its qualifiers to the finals from the signed-off results, which cannot be further "
        "altered (001 §5): with this correction P1 would have gone instead of P0. Sending players to the finals "
        "cannot be undone, so the correction is refused."]
    assert not sheet.revisions.filter(kind=SheetRevision.Kind.CORRECTED).exists()
    client.force_login(organizer)
    response = client.post(reverse("referee-correct", args=[dubai.slug, first.pk]), {
        **{f"vp_{e.pk}": vp for e, vp in zip(entries[:4], [8, 10, 6, 4])}, "winner": entries[1].pk,
        "base_version": sheet.version, "reason": "The paper names P1"})
    assert response.status_code == 422 and "P1 would have gone instead of P0" in response.content.decode()
    fixed = correct(sheet.pk, corrected(first, [10, 8, 6, 5]), user=organizer, reason="P3 had 5",
                    base_version=sheet.version)
    assert fixed.revisions.filter(kind=SheetRevision.Kind.CORRECTED).count() == 1


def tables(game) -> list[set[int]]:
    return [set(t.seats.values_list("entry_id", flat=True)) for t in game.tables.order_by("number")]


def world_with_preliminary_game():
    world = create_championship_from_preset("world-championship", user=make_admin()).tournaments.get()
    referee = make_official(world)
    organizer = make_official(world, "organizer")
    entries = [enter_player(make_player(f"S{i:02d}"), world, user=make_admin()) for i in range(16)]
    game = make_game(world, [entries[i:i + 4] for i in range(0, 16, 4)], number=1,
                     stage=world.stages.get(kind="preliminary"))
    sheets = [play(table, vps, referee) for table, vps in zip(
        game.tables.order_by("number"), [[10, 9, 8, 7], [10, 9, 8, 6], [10, 9, 7, 6], [10, 8, 7, 6]])]
    return world, organizer, game, sheets


def test_a_correction_that_would_move_a_seated_semifinalist_is_refused_until_the_seating_is_undone(client):
    """004 §1.1.5: the semifinal tables come from the preliminary rank. Once the semifinal is seated, a correction
    that would move players between its tables is refused with what to undo first: while the semifinal is
    published without results, take it back; while planned, clear its seating (audited). Then the correction is
    made and the semifinal seated again from the corrected results. A time typo moves nobody and is made at once."""
    world, organizer, game, sheets = world_with_preliminary_game()
    stage = world.stages.get(kind="semifinal")
    semifinal = seat_seeded_stage(stage.pk, user=make_admin())
    seated = tables(semifinal)
    publish_game(semifinal.pk, user=make_admin())
    table = game.tables.get(number=4)
    sheet = sheets[3]
    fixed_time = correct(sheet.pk, corrected(table, [10, 8, 7, 6], start_time=time(10), end_time=time(11, 5)),
                         user=organizer, reason="Times from the paper", base_version=sheet.version)
    swap = corrected(table, [10, 9, 7, 5], start_time=time(10), end_time=time(11, 5))  # 004 §1.3: new seeds
    with pytest.raises(ValidationError, match=r"Semifinals was seated by rank from these results and published, "
                                              r"and with this correction .* Take game 5 back and clear its seating "
                                              r"first, then correct the sheet and seat Semifinals again\."):
        correct(sheet.pk, swap, user=organizer, reason="The paper says 9, 7, 5", base_version=fixed_time.version)
    unpublish_game(semifinal.pk, user=make_admin())
    with pytest.raises(ValidationError, match=r"Clear its seating first \(on its seating page\)"):
        correct(sheet.pk, swap, user=organizer, reason="The paper says 9, 7, 5", base_version=fixed_time.version)
    client.force_login(organizer)
    page = client.get(reverse("stage-seating", args=[world.slug, stage.pk])).content.decode()
    assert "Clear this seating" in page
    response = client.post(reverse("stage-clear", args=[world.slug, stage.pk]), follow=True)
    assert "The seating of Semifinals is cleared" in response.content.decode() and not stage.game_set.exists()
    assert AuditEntry.objects.filter(action="seating.cleared", object_id=stage.pk).exists()
    correct(sheet.pk, swap, user=organizer, reason="The paper says 9, 7, 5", base_version=fixed_time.version)
    again = seat_seeded_stage(stage.pk, user=make_admin())
    order = [row["entry"] for row in compute_standings(world)]
    chart = [(1, 8, 9, 16), (2, 7, 10, 15), (3, 6, 11, 14), (4, 5, 12, 13)]
    assert tables(again) == [{order[n - 1] for n in seeds} for seeds in chart] != seated


def test_clearing_a_published_or_scheduled_stage_is_refused():
    world, _organizer, game, _sheets = world_with_preliminary_game()
    with pytest.raises(ValidationError, match="seated by schedule, not by rank"):
        clear_seeded_stage(game.stage_id, user=make_admin())
    stage = world.stages.get(kind="semifinal")
    publish_game(seat_seeded_stage(stage.pk, user=make_admin()).pk, user=make_admin())
    with pytest.raises(ValidationError, match="is published: take its game back first"):
        clear_seeded_stage(stage.pk, user=make_admin())
    assert stage.game_set.exists()
