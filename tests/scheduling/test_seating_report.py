"""The stage page's quality report after swaps: named pairs, whom a player meets again, unavoidable counts not in
alarm red, the re-plan panel only while something is left to plan, and "take back" only where it is allowed."""
import re

import pytest
from django.urls import reverse

from championships.models import Relationship
from results.publishing import publish_game
from results.sheets import SheetInput, save_entry
from scheduling import selectors, services
from scheduling.models import Game, Seat
from tests.factories import make_admin, make_entries, make_official, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def stage():
    tournament = make_tournament(slug="report-cup", games=2)
    make_entries(tournament, 12)
    make_official(tournament, "referee")
    return tournament.stages.get()


def page(client, stage, **query):
    return client.get(reverse("stage-seating", args=[stage.tournament.slug, stage.pk]), query).content.decode()


def report_html(html: str) -> str:
    return html[html.index('id="report-title"'):html.index("</section>", html.index('id="report-title"'))]


def seat_of(game, entry_id):
    return Seat.objects.select_related("table").get(game=game, entry_id=entry_id)


def test_friend_conflicts_and_repeats_name_both_players_after_swaps(client, stage):
    """Regression: after swaps the report printed "None and None"; every pair must carry both names."""
    organizer = make_official(stage.tournament, "organizer")
    client.force_login(organizer)
    entries = list(stage.tournament.entries.select_related("player").order_by("pk"))
    one, two = entries[0], entries[1]
    Relationship.objects.create(player_a=one.player, player_b=two.player)
    services.generate_seating(stage.pk, user=organizer, seed=1)
    game = Game.objects.get(stage=stage, number=1)
    neighbour = Seat.objects.filter(game=game, table=seat_of(game, one.pk).table).exclude(entry=one).first()
    services.swap_seats(game.pk, two.pk, neighbour.entry_id, user=organizer)  # the friends now share a table
    html = page(client, stage)
    report = report_html(html)
    assert "None" not in report
    assert f"game 1: <bdi>{one.player.name}</bdi> and <bdi>{two.player.name}</bdi>" in report or \
        f"game 1: <bdi>{two.player.name}</bdi> and <bdi>{one.player.name}</bdi>" in report
    repeated = selectors.stage_page(stage).repeated
    assert repeated and all(pair.first and pair.second and pair.times >= 2 for pair in repeated)
    first = repeated[0]
    assert f"<bdi>{first.first}</bdi> and <bdi>{first.second}</bdi> meet {first.times} times" in report
    # whom a player meets again: in the opponents table, the seat's warning and the search
    row = next(r for r in re.findall(r"<tr><td><bdi>(.*?)</bdi></td><td>.*?</td><td>(.*?)</td></tr>", report)
               if r[0] == first.first)
    assert f"<bdi>{first.second}</bdi>" in row[1]
    assert f"meets {first.second} again" in html or f"meets {first.first} again" in html or \
        re.search(rf"meets [^<]*{re.escape(first.second)}[^<]* again", html)
    found = page(client, stage, q=first.first)
    assert re.search(rf"Meets again: .*<bdi>{re.escape(first.second)}</bdi>", found)


def test_an_unavoidable_repeat_count_is_not_alarm_red_an_avoidable_one_is(client, stage):
    organizer = make_official(stage.tournament, "organizer")
    client.force_login(organizer)
    result = services.generate_seating(stage.pk, user=organizer, seed=1)
    # 12 players in 2 games at 3 tables of 4: each table of game 2 meets a pair of game 1 again (pigeonhole)
    assert result.report.repeat_pairings == result.report.repeat_bound == 3
    html = report_html(page(client, stage))
    assert '<div class="unavoidable"><dt>Repeat pairings</dt><dd>3 <small>(unavoidable' in html
    assert '<div class="bad"><dt>Repeat pairings' not in html
    game = Game.objects.get(stage=stage, number=2)
    seats = list(Seat.objects.filter(game=game).order_by("table__number", "position"))
    for other in seats[4:]:  # find a swap that makes repeats worse than the fewest possible
        services.swap_seats(game.pk, seats[0].entry_id, other.entry_id, user=organizer)
        if selectors.stage_page(stage).report.repeat_pairings > 3:
            break
        services.swap_seats(game.pk, seats[0].entry_id, other.entry_id, user=organizer)
    else:
        pytest.fail("no swap made the seating worse")
    html = report_html(page(client, stage))
    assert '<div class="bad"><dt>Repeat pairings' in html and "unavoidable" not in html


def test_re_plan_panel_hides_once_every_game_is_published(client, stage):
    organizer = make_official(stage.tournament, "organizer")
    client.force_login(organizer)
    assert "Generate the seating" in page(client, stage)
    services.generate_seating(stage.pk, user=organizer, seed=1)
    first, second = Game.objects.filter(stage=stage).order_by("number")
    publish_game(first.pk, user=organizer)
    assert "Re-plan the games not yet published" in page(client, stage)
    publish_game(second.pk, user=organizer)
    html = page(client, stage)
    assert "Re-plan the games not yet published" not in html and "Generate seating" not in html


def test_take_back_is_offered_only_for_a_published_game_without_results(client, stage):
    organizer = make_official(stage.tournament, "organizer")
    client.force_login(organizer)
    services.generate_seating(stage.pk, user=make_admin(), seed=1)
    first, second = Game.objects.filter(stage=stage).order_by("number")
    html = page(client, stage)
    assert "game-unpublish" not in html and "Take back" not in html  # nothing published yet
    publish_game(first.pk, user=organizer)
    publish_game(second.pk, user=organizer)
    unpublish = reverse("game-unpublish", args=[stage.tournament.slug, stage.pk, first.pk])
    assert unpublish in page(client, stage)
    table = first.tables.first()
    seats = list(table.seats.order_by("position"))
    save_entry(table.sheet.pk, SheetInput({s.entry_id: v for s, v in zip(seats, [10, 5, 4, 3])}),
               user=organizer, base_version=0)
    html = page(client, stage)
    assert unpublish not in html  # a result is entered: the rule of results.publishing.unpublish_game refuses
    assert reverse("game-unpublish", args=[stage.tournament.slug, stage.pk, second.pk]) in html


def test_forced_position_repeats_are_shown_as_unavoidable(client):
    """cwc-2025, 8 players, 5 games: each player has 5 seats and 4 positions, so 8 repeats are forced."""
    tournament = make_tournament(slug="positions-cup", games=5, ruleset="cwc-2025")
    make_entries(tournament, 8)
    stage = tournament.stages.get()
    organizer = make_official(tournament, "organizer")
    client.force_login(organizer)
    result = services.generate_seating(stage.pk, user=organizer, seed=1)
    assert result.report.position_repeats == result.report.position_bound == 8
    html = report_html(page(client, stage))
    assert '<div class="unavoidable"><dt>Repeated positions</dt><dd>8 <small>(unavoidable' in html
    game = Game.objects.get(stage=stage, number=1)
    first, second = Seat.objects.filter(game=game, table__number=1).order_by("position")[:2]
    services.swap_seats(game.pk, first.entry_id, second.entry_id, user=organizer)  # two more repeats
    assert selectors.stage_page(stage).report.position_repeats > 8
    html = report_html(page(client, stage))
    assert '<div class="bad"><dt>Repeated positions' in html


def test_compatriots_a_country_larger_than_the_tables_forces_are_shown_as_unavoidable(client):
    """cwc-2025, 12 players of one country at 3 tables: every pair at every table is forced (6 × 3 a game)."""
    tournament = make_tournament(slug="country-cup", games=2, ruleset="cwc-2025")
    make_entries(tournament, 12, country="NL")
    stage = tournament.stages.get()
    organizer = make_official(tournament, "organizer")
    client.force_login(organizer)
    result = services.generate_seating(stage.pk, user=organizer, seed=1)
    assert result.report.same_country_tablemates == result.report.country_bound == 2 * 3 * 6
    html = report_html(page(client, stage))
    assert '<div class="unavoidable"><dt>Same-country tablemates</dt><dd>36 <small>(unavoidable' in html
