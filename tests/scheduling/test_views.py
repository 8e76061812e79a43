"""The organizer's seating screens and the public seating API."""
import pytest
from django.urls import reverse

from results.publishing import publish_game
from scheduling import services
from scheduling.models import Game, PlanningJob, Seat
from tests.factories import make_admin, make_entries, make_official, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def stage():
    tournament = make_tournament(slug="seat-cup", games=2)
    make_entries(tournament, 12)
    make_official(tournament, "referee")  # games are published only with a referee (seed 001 §5)
    return tournament.stages.get()


def stage_url(stage, name="stage-seating", **extra):
    return reverse(name, kwargs={"slug": "seat-cup", "stage_id": stage.pk, **extra})


def test_organizer_generates_sees_report_swaps_and_publishes(client, stage):
    client.force_login(make_official(stage.tournament, "organizer"))
    response = client.post(stage_url(stage, "stage-generate"), {"seed": 4}, follow=True)
    html = response.content.decode()
    assert "Seating planned in" in html and "Quality report" in html and "Repeat pairings" in html
    game = Game.objects.get(stage=stage, number=2)
    one, other = Seat.objects.filter(game=game).select_related("table").order_by("table__number", "position")[::5][:2]
    assert f'name="seat" value="{one.table.number}.{one.position}"' in html  # a seat to tick
    swap = {"seat": [f"{one.table.number}.{one.position}", f"{other.table.number}.{other.position}"],
            "layout": services.layout_token(game)}
    response = client.post(stage_url(stage, "game-swap", game_id=game.pk), swap, follow=True)
    assert "swapped in game 2" in response.content.decode()
    assert Seat.objects.get(game=game, entry_id=one.entry_id).table_id == other.table_id
    again = client.post(stage_url(stage, "game-swap", game_id=game.pk), swap, follow=True)  # a double submit
    assert "changed since this page was loaded; nothing was swapped" in again.content.decode()
    assert Seat.objects.get(game=game, entry_id=one.entry_id).table_id == other.table_id
    assert client.get("/api/tournaments/seat-cup/games/2/seating/").status_code == 404  # not published yet
    client.post(stage_url(stage, "game-publish", game_id=game.pk))
    seating = client.get("/api/tournaments/seat-cup/games/2/seating/").json()
    assert [len(t["seats"]) for t in seating["tables"]] == [4, 4, 4]
    assert {s["player"] for t in seating["tables"] for s in t["seats"]} == set(
        stage.tournament.entries.values_list("player__name", flat=True))
    assert all("vp" not in s for t in seating["tables"] for s in t["seats"])


def test_a_clear_message_when_the_stage_cannot_be_seated(client):
    tournament = make_tournament(slug="seat-cup", games=1)
    make_entries(tournament, 5)
    client.force_login(make_official(tournament, "organizer"))
    response = client.post(stage_url(tournament.stages.get(), "stage-generate"), {"seed": 1}, follow=True)
    assert "5 players cannot be seated" in response.content.decode()


def test_an_unreachable_broker_plans_on_the_web_process_instead(client, monkeypatch,
                                                                django_capture_on_commit_callbacks):
    """The one policy of core.background: Redis down on the day, the job runs on this process's threads."""
    from kombu.exceptions import OperationalError

    from scheduling.tasks import generate_seating_task

    tournament = make_tournament(slug="seat-cup", games=1)
    make_entries(tournament, 8)
    client.force_login(make_official(tournament, "organizer"))

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:1. Connection refused.")

    monkeypatch.setattr("scheduling.tasks.INLINE_MAX_PLAYERS", 0)
    monkeypatch.setitem(generate_seating_task.app.conf, "task_always_eager", False)  # as with REDIS_URL
    monkeypatch.setattr(generate_seating_task, "delay", broker_down)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(stage_url(tournament.stages.get(), "stage-generate"), {"seed": 1})
    job = PlanningJob.objects.get()
    assert response["Location"].endswith(f"?task={job.pk}")  # the page follows the job as with a worker
    assert job.status == PlanningJob.Status.SUCCEEDED and tournament.games.count() == 1


@pytest.mark.parametrize("role", ["referee", None])
def test_only_organizers_plan_seating(client, stage, role):
    user = make_official(stage.tournament, role) if role else make_official(make_tournament(), "organizer")
    client.force_login(user)
    assert client.get(stage_url(stage)).status_code == 403
    assert client.post(stage_url(stage, "stage-generate"), {"seed": 1}).status_code == 403
    assert not Game.objects.filter(stage=stage).exists()


def test_a_published_game_without_results_can_be_taken_back_and_re_planned(client, stage):
    from championships.models import Entry
    from results.sheets import SheetInput, save_entry

    organizer = make_official(stage.tournament, "organizer")
    client.force_login(organizer)
    services.generate_seating(stage.pk, seed=1, user=make_admin())
    first, second = Game.objects.filter(stage=stage).order_by("number")
    publish_game(first.pk, user=make_admin())
    publish_game(second.pk, user=make_admin())
    leaving = Seat.objects.filter(game=second).first().entry
    Entry.objects.filter(pk=leaving.pk).update(status=Entry.Status.WITHDRAWN)
    table = first.tables.first()
    seats = list(table.seats.order_by("position"))
    save_entry(table.sheet.pk, SheetInput({s.entry_id: v for s, v in zip(seats, [10, 5, 4, 3])}),
               user=organizer, base_version=0)
    refused = client.post(stage_url(stage, "game-unpublish", game_id=first.pk), follow=True)
    assert "it has started, its seating stays" in refused.content.decode()
    taken_back = client.post(stage_url(stage, "game-unpublish", game_id=second.pk), follow=True)
    assert "is planned again" in taken_back.content.decode()
    client.post(stage_url(stage, "stage-generate"), {"seed": 2})
    replanned = Game.objects.get(stage=stage, number=2)
    assert not Seat.objects.filter(game=replanned, entry=leaving).exists()
    assert Seat.objects.filter(game=replanned).count() == 11
