"""Seating in the database: generated stages, swaps with an updated report, publishing, re-planning."""
import pytest
from django.core.exceptions import ValidationError

from championships.models import Entry, Stage
from championships.services import declare_relationship
from results.publishing import publish_game
from scheduling import services
from scheduling.models import Game, Seat
from scheduling.selectors import stage_page
from tests.factories import make_admin, make_entries, make_official, make_tournament

pytestmark = pytest.mark.django_db


def seating_of(stage):
    return [[sorted(t.seats.values_list("entry_id", flat=True)) for t in g.tables.order_by("number")]
            for g in Game.objects.filter(stage=stage).order_by("number")]


def test_generate_writes_every_game_with_distinct_seats():
    tournament = make_tournament(games=3)
    entries = make_entries(tournament, 14)
    stage = tournament.stages.get()
    result = services.generate_seating(stage.pk, seed=3, user=make_admin())
    games = Game.objects.filter(stage=stage).order_by("number")
    assert [g.number for g in games] == [1, 2, 3]
    for game in games:
        sizes = sorted(t.seats.count() for t in game.tables.all())
        assert sizes == [3, 3, 4, 4]
        assert sorted(Seat.objects.filter(game=game).values_list("entry_id", flat=True)) == sorted(
            e.pk for e in entries)
        for table in game.tables.all():
            assert sorted(table.seats.values_list("position", flat=True)) == list(range(1, table.seats.count() + 1))
    assert result.report.friend_conflicts == ()


def test_declared_friends_are_kept_apart():
    tournament = make_tournament(games=3)
    entries = make_entries(tournament, 12)
    declare_relationship(entries[0].player, entries[1].player, user=make_admin(), tournament=tournament)
    stage = tournament.stages.get()
    services.generate_seating(stage.pk, seed=1, user=make_admin())
    for game in seating_of(stage):
        assert not any({entries[0].pk, entries[1].pk} <= set(table) for table in game)


def test_same_seed_same_seating_and_regeneration_replaces_planned_games():
    tournament = make_tournament(games=2)
    make_entries(tournament, 12)
    stage = tournament.stages.get()
    services.generate_seating(stage.pk, seed=5, user=make_admin())
    first = seating_of(stage)
    services.generate_seating(stage.pk, seed=5, user=make_admin())
    assert seating_of(stage) == first
    assert Game.objects.filter(stage=stage).count() == 2


def test_replanning_keeps_published_games_and_drops_withdrawn_players():
    tournament = make_tournament(games=3)
    make_official(tournament)  # a referee, or no game is published (seed 001 §5)
    entries = make_entries(tournament, 13)
    stage = tournament.stages.get()
    services.generate_seating(stage.pk, seed=2, user=make_admin())
    game_one = Game.objects.get(stage=stage, number=1)
    publish_game(game_one.pk, user=make_admin())
    before = seating_of(stage)[0]
    Entry.objects.filter(pk=entries[0].pk).update(status=Entry.Status.WITHDRAWN)
    result = services.generate_seating(stage.pk, seed=2, user=make_admin())
    after = seating_of(stage)
    assert after[0] == before
    assert all(entries[0].pk not in table for game in after[1:] for table in game)
    assert [g.number for g in Game.objects.filter(stage=stage).order_by("number")] == [1, 2, 3]
    met_in_game_one = {frozenset((a, b)) for table in before for a in table for b in table if a < b}
    assert {frozenset(pair) for pair, _ in result.report.repeated_pairs} <= met_in_game_one | {
        frozenset((a, b)) for game in after[1:] for table in game for a in table for b in table if a < b}
    assert len(result.report.opponents[entries[1].pk]) == sum(
        len(table) - 1 for game in after for table in game if entries[1].pk in table)


def test_swap_updates_the_report_and_is_refused_once_published():
    tournament = make_tournament(games=2)
    make_official(tournament)  # a referee, or no game is published (seed 001 §5)
    make_entries(tournament, 16)
    stage = tournament.stages.get()
    services.generate_seating(stage.pk, seed=1, user=make_admin())
    assert stage_page(stage).report.repeat_pairings == 0
    game_one, game_two = Game.objects.filter(stage=stage).order_by("number")
    table_one = list(game_one.tables.get(number=1).seats.values_list("entry_id", flat=True))
    # put two players who met in game 1 together again in game 2
    a, b = table_one[0], table_one[1]
    seat_b = Seat.objects.get(game=game_two, entry_id=b)
    partner = Seat.objects.filter(table=Seat.objects.get(game=game_two, entry_id=a).table).exclude(entry_id=a).first()
    services.swap_seats(game_two.pk, b, partner.entry_id, user=make_admin())
    page = stage_page(stage)
    assert page.report.repeat_pairings >= 1
    warned = {s.entry_id: s.warnings for view in page.shown if view.game == game_two for t in view.tables
              for s in t.seats}
    name_of = dict(tournament.entries.values_list("pk", "player__name"))
    assert f"meets {name_of[b]} again" in warned[a] and f"meets {name_of[a]} again" in warned[b]
    publish_game(game_two.pk, user=make_admin())
    with pytest.raises(ValidationError, match="published"):
        services.swap_seats(game_two.pk, a, seat_b.entry_id, user=make_admin())


def test_impossible_player_count_is_a_clear_error():
    tournament = make_tournament(games=1)
    make_entries(tournament, 5)
    with pytest.raises(ValidationError, match="5 players cannot be seated"):
        services.generate_seating(tournament.stages.get().pk, user=make_admin())
    assert not Game.objects.exists()


def test_game_numbers_continue_across_stages():
    tournament = make_tournament(games=3)
    Stage.objects.create(tournament=tournament, order=2, kind="final", name="Final", games=1, seating="scheduled")
    make_entries(tournament, 8)
    final = tournament.stages.get(order=2)
    services.generate_seating(final.pk, user=make_admin())
    assert list(Game.objects.filter(stage=final).values_list("number", flat=True)) == [4]


def test_replanning_after_publishing_out_of_order_keeps_the_numbers():
    tournament = make_tournament(games=3)
    make_official(tournament)  # a referee, or no game is published (seed 001 §5)
    make_entries(tournament, 12)
    stage = tournament.stages.get()
    services.generate_seating(stage.pk, seed=1, user=make_admin())
    publish_game(Game.objects.get(stage=stage, number=2).pk, user=make_admin())
    services.generate_seating(stage.pk, seed=2, user=make_admin())
    assert sorted(Game.objects.filter(stage=stage).values_list("number", flat=True)) == [1, 2, 3]


def test_a_stage_that_changes_during_the_search_is_not_overwritten():
    """The search runs outside any transaction; its short write refuses a stage that changed meanwhile."""
    tournament = make_tournament(games=2)
    entries = make_entries(tournament, 13)
    stage = tournament.stages.get()

    def withdraw_during_the_search(done: float) -> None:
        if done == 1.0:
            Entry.objects.filter(pk=entries[0].pk).update(status=Entry.Status.WITHDRAWN)

    with pytest.raises(ValidationError, match="changed while its seating was being planned"):
        services.generate_seating(stage.pk, user=make_admin(), seed=1, progress=withdraw_during_the_search)
    assert not Game.objects.filter(stage=stage).exists()
    services.generate_seating(stage.pk, user=make_admin(), seed=1)
    assert not Seat.objects.filter(game__stage=stage, entry=entries[0]).exists()


def test_seating_is_audited_and_only_organizers_may_plan_it():
    from django.core.exceptions import PermissionDenied

    from audit.models import AuditEntry
    from tests.factories import make_official

    tournament = make_tournament(games=1)
    make_entries(tournament, 8)
    stage = tournament.stages.get()
    with pytest.raises(PermissionDenied):
        services.generate_seating(stage.pk, user=make_official(tournament, "referee"), seed=1)
    organizer = make_official(tournament, "organizer")
    services.generate_seating(stage.pk, user=organizer, seed=1)
    entry = AuditEntry.objects.get(action="seating.generated")
    assert entry.user == organizer and entry.tournament == tournament and entry.after["games"] == [1]
