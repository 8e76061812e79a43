"""Readers never pay for a render: after a change, one coalesced background job per tournament renders the public
pages and announces the version; meanwhile readers get the previous version, with its version number."""
import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catan_tournaments.celery import app
from ranking import refresh, tasks
from ranking.standings import results_version
from tests.factories import make_entries, make_game, make_official, make_tournament, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def worker(monkeypatch):
    """A broker and a worker, as in production, except that queued jobs are only recorded: the test runs them."""
    queued = []
    monkeypatch.setattr(tasks.refresh_task, "delay", lambda pk: queued.append(("pages", pk)))
    monkeypatch.setattr(tasks.pdf_warming_task, "delay", lambda pk: queued.append(("pdfs", pk)))
    app.conf.task_always_eager = False  # tests/conftest.py puts it back
    yield queued
    app.conf.task_always_eager = True


@pytest.fixture
def event(django_capture_on_commit_callbacks):
    """A running tournament of 80 players: game 1 published, 20 tables open."""
    tournament = make_tournament(slug="cup", name="Cup", status="running")
    entries = make_entries(tournament, 80)
    referee = make_official(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(tournament, [entries[i:i + 4] for i in range(0, 80, 4)])
    return {"t": tournament, "referee": referee, "tables": list(game.tables.order_by("number")), "entries": entries}


def sign_off(event, table_index: int, callbacks, vps=(10, 7, 5, 3)) -> None:
    with callbacks(execute=True):
        play(event["tables"][table_index], list(vps), event["referee"])


def test_a_burst_of_twenty_sign_offs_queues_one_refresh(event, worker, django_capture_on_commit_callbacks):
    before = results_version(event["t"].pk)
    for index in range(20):
        sign_off(event, index, django_capture_on_commit_callbacks)
    assert worker == [("pages", event["t"].pk)]
    assert results_version(event["t"].pk) != before  # the version itself follows every change at once


def test_a_change_while_the_job_runs_queues_one_more_round(event, worker, django_capture_on_commit_callbacks,
                                                           monkeypatch):
    announced = []
    real = refresh.refresh_pages

    def one_round(pk):
        announced.append(real(pk))
        if len(announced) == 1:  # sign-offs arrive while the first round renders
            for index in (1, 2, 3):
                sign_off(event, index, django_capture_on_commit_callbacks)
        return announced[-1]

    monkeypatch.setattr(refresh, "refresh_pages", one_round)
    sign_off(event, 0, django_capture_on_commit_callbacks)
    tasks.refresh_task(event["t"].pk)
    assert announced == [True, True]  # one more round for the three, in the same job
    assert worker.count(("pages", event["t"].pk)) == 2  # and one more job queued for them, which finds them done
    tasks.refresh_task(event["t"].pk)
    assert announced == [True, True, False]
    assert refresh.announced_version(event["t"].pk) == results_version(event["t"].pk)


def test_a_second_runner_leaves_the_work_to_the_first(event, worker, monkeypatch):
    rounds = []
    monkeypatch.setattr(refresh, "refresh_pages", rounds.append)
    cache.add(f"refresh-pages-running:{event['t'].pk}", 1)
    refresh.mark_queued(event["t"].pk)
    refresh.run_refresh(event["t"].pk)
    assert rounds == []


def test_readers_get_the_previous_version_while_the_refresh_runs_and_the_new_one_once_ready(
        client, event, worker, django_capture_on_commit_callbacks):
    pk = event["t"].pk
    tasks.refresh_task(pk)  # the pages of the current version are ready and announced
    old = results_version(pk)
    assert client.get("/t/cup/version/").json()["version"] == old
    sign_off(event, 0, django_capture_on_commit_callbacks, vps=(4, 10, 6, 2))
    new = results_version(pk)
    assert new != old
    winner = event["entries"][1].player.name

    with CaptureQueriesContext(connection) as queries:  # the refresh is queued: the previous version, no render
        page = client.get("/t/cup/standings/")
    assert len(queries) == 0
    assert f'data-live-version="{old}"' in page.content.decode() and client.get(
        "/t/cup/version/").json()["version"] == old
    assert page.content.decode().index(winner) > page.content.decode().index(event["entries"][0].player.name)

    tasks.refresh_task(pk)  # the worker's turn: pages rendered, then the version announced
    assert client.get("/t/cup/version/").json()["version"] == new
    with CaptureQueriesContext(connection) as queries:
        page = client.get("/t/cup/standings/").content.decode()
    assert len(queries) == 0  # rendered by the job, not by this reader
    assert f'data-live-version="{new}"' in page
    assert page.index(winner) < page.index(event["entries"][0].player.name)


def test_staff_see_the_newest_results_during_a_refresh(client, event, worker, django_capture_on_commit_callbacks):
    pk = event["t"].pk
    tasks.refresh_task(pk)
    sign_off(event, 0, django_capture_on_commit_callbacks, vps=(4, 10, 6, 2))
    client.force_login(event["referee"])
    page = client.get("/t/cup/standings/").content.decode()
    assert f'data-live-version="{results_version(pk)}"' in page
    assert page.index(event["entries"][1].player.name) < page.index(event["entries"][0].player.name)
    assert client.get("/t/cup/version/").json()["version"] == results_version(pk)


def test_a_lost_job_stops_holding_readers_on_the_previous_version(client, event, worker,
                                                                   django_capture_on_commit_callbacks):
    pk = event["t"].pk
    tasks.refresh_task(pk)
    old = results_version(pk)
    sign_off(event, 0, django_capture_on_commit_callbacks)
    assert client.get("/t/cup/version/").json()["version"] == old
    cache.delete(f"refresh-pages-queued:{pk}")  # QUEUED_SECONDS passed and no worker took the job
    assert client.get("/t/cup/version/").json()["version"] == results_version(pk) != old


def test_without_a_worker_nothing_is_queued_and_readers_get_the_newest_version(client, event, monkeypatch,
                                                                               django_capture_on_commit_callbacks):
    queued = []
    monkeypatch.setattr(tasks.refresh_task, "delay", queued.append)
    sign_off(event, 0, django_capture_on_commit_callbacks)  # the suite's Celery is eager: no worker
    assert queued == [] and cache.get(f"refresh-pages-queued:{event['t'].pk}") is None
    assert client.get("/t/cup/version/").json()["version"] == results_version(event["t"].pk)


def test_the_job_renders_in_the_languages_readers_use_and_the_pdfs_they_ask_for(
        client, event, worker, django_capture_on_commit_callbacks, monkeypatch):
    from ranking import printing

    layouts = []
    monkeypatch.setattr(printing, "render_pdf", lambda template, context, **kw: layouts.append(template) or b"%PDF-")
    pk = event["t"].pk
    assert client.get("/he/t/cup/screen/").status_code == 200  # a reader in Hebrew, rendered on demand
    assert client.get("/ar/t/cup/standings.pdf?paper=letter").status_code == 200
    sign_off(event, 0, django_capture_on_commit_callbacks)
    tasks.refresh_task(pk)
    assert ("pdfs", pk) in worker
    del layouts[:]
    tasks.pdf_warming_task(pk)
    assert sorted(layouts) == ["print/seating.html", "print/standings.html", "print/standings.html"]
    with CaptureQueriesContext(connection) as queries:
        for path in ("/he/t/cup/screen/", "/t/cup/screen/", "/ar/t/cup/standings.pdf?paper=letter",
                     "/t/cup/standings.pdf", "/t/cup/games/1/seating.pdf"):
            assert client.get(path).status_code == 200
    assert len(queries) == 0 and len(layouts) == 3  # every one from the cache


def test_a_newer_change_stops_the_pdfs_for_the_pages(event, worker, django_capture_on_commit_callbacks,
                                                     monkeypatch):
    from ranking import printing

    layouts = []
    monkeypatch.setattr(printing, "render_pdf", lambda template, context, **kw: layouts.append(template) or b"%PDF-")
    tasks.refresh_task(event["t"].pk)
    sign_off(event, 0, django_capture_on_commit_callbacks)
    tasks.pdf_warming_task(event["t"].pk)
    assert layouts == []


def test_the_players_of_a_table_just_signed_off_find_their_page_ready(client, event, worker,
                                                                     django_capture_on_commit_callbacks):
    tasks.refresh_task(event["t"].pk)  # a first round: from now on, what is new is known
    sign_off(event, 5, django_capture_on_commit_callbacks)
    tasks.refresh_task(event["t"].pk)
    played = [e.player_id for e in event["entries"][20:24]]
    with CaptureQueriesContext(connection) as queries:
        for player in played:
            assert client.get(f"/t/cup/players/{player}/").status_code == 200
    assert len(queries) <= 1  # at most the tournament's id (remembered by each process for a while)
    with CaptureQueriesContext(connection) as queries:  # someone else's: rendered when asked, from cached standings
        assert client.get(f"/t/cup/players/{event['entries'][0].player_id}/").status_code == 200
    assert 0 < len(queries) <= 6


def test_the_poll_says_a_newer_version_is_coming_so_open_pages_ask_again_soon(
        client, event, worker, django_capture_on_commit_callbacks):
    pk = event["t"].pk
    tasks.refresh_task(pk)
    idle = client.get("/t/cup/version/")
    assert idle.json()["coming"] is False
    sign_off(event, 0, django_capture_on_commit_callbacks, vps=(4, 10, 6, 2))
    # the same version as before, but no longer a 304: the answer now says to ask again in a second
    during = client.get("/t/cup/version/", HTTP_IF_NONE_MATCH=idle.headers["ETag"])
    assert during.status_code == 200
    assert during.json()["version"] == idle.json()["version"] and during.json()["coming"] is True
    assert during.json()["soon"] == 1
    assert client.get("/t/cup/version/", HTTP_IF_NONE_MATCH=during.headers["ETag"]).status_code == 304
    tasks.refresh_task(pk)
    ready = client.get("/t/cup/version/", HTTP_IF_NONE_MATCH=during.headers["ETag"]).json()
    assert ready["version"] == results_version(pk) and ready["coming"] is False
    client.force_login(event["referee"])  # staff see the newest at once: nothing is coming for them
    sign_off(event, 1, django_capture_on_commit_callbacks)
    assert client.get("/t/cup/version/").json()["coming"] is False
