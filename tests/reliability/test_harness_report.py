"""`make load` and `make chaos` always end with their figures and a verdict (issue 22 item 9): a timeout or a refused
connection is counted as an error of its kind of request, never a traceback out of the run; a stack that does not
start or a phase stopped at its bound still gives a report, and the exit status says whether a check failed.

No stack is started: the HTTP client answers through httpx's MockTransport and the stack is a stand-in."""
import asyncio
import json
import random
import time
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest

from reliability import chaos, clients, live_update, load
from reliability.clients import Browser, RequestFailed, Stats, Tablet, play_game
from reliability.connections import Clients
from reliability.live_update import LiveLog, announced_delays, page_delays


def raising(error: type[httpx.TransportError]):
    def handler(request: httpx.Request) -> httpx.Response:
        raise error("no answer", request=request)
    return httpx.MockTransport(handler)


def answering(*responses: httpx.Response):
    """Answers in turn, the last one for every request after."""
    answers = list(responses)

    def handler(request: httpx.Request) -> httpx.Response:
        return answers.pop(0) if len(answers) > 1 else answers[0]
    return httpx.MockTransport(handler)


def run(coroutine):
    return asyncio.run(coroutine)


@pytest.mark.parametrize("error", [httpx.ReadTimeout, httpx.ConnectTimeout, httpx.ConnectError])
def test_a_reader_whose_request_times_out_counts_an_error_of_that_kind(error):
    stats = Stats()

    async def read():
        async with Clients("http://test", transport=raising(error)) as client:
            return await Browser(client, stats).get("public-standings", "/t/q/standings/")

    assert run(read()) is None
    assert stats.error_kinds() == {f"public-standings: {error.__name__}": 1}
    assert stats.summary(["public-standings"])["errors"] == 1


@pytest.mark.parametrize("name, path", [("public-standings-pdf", "/t/q/standings.pdf"),
                                        ("public-standings-xlsx", "/t/q/standings.xlsx")])  # the same render slots
def test_a_pdf_or_xlsx_refused_with_429_is_asked_again_after_retry_after_and_not_an_error(name, path):
    stats = Stats()
    transport = answering(httpx.Response(429, headers={"Retry-After": "0"}),
                          httpx.Response(200, content=b"%PDF-1.7", headers={"Content-Type": "application/pdf"}))

    async def read():
        async with Clients("http://test", transport=transport) as client:
            return await Browser(client, stats).get(name, path)

    assert run(read()) == ""
    assert stats.errors == {}
    assert len(stats.busy[name]) == 1
    assert len(stats.latencies[name]) == 1
    assert len(stats.latencies[f"{name} (after 429: until served)"]) == 1
    assert stats.summary([name]) | {"p50": 0, "p95": 0, "p99": 0} == {
        "requests": 2, "errors": 0, "busy": 1, "p50": 0, "p95": 0, "p99": 0}


def test_a_pdf_refused_every_time_is_an_error_and_a_page_refused_with_429_is_one_at_once():
    stats = Stats()

    async def read():
        async with Clients("http://test", transport=answering(
                httpx.Response(429, headers={"Retry-After": "0"}))) as client:
            browser = Browser(client, stats)
            return (await browser.get("public-standings-pdf", "/t/q/standings.pdf?paper=a4"),
                    await browser.get("public-standings", "/t/q/standings/"))

    assert run(read()) == (None, None)
    assert len(stats.busy["public-standings-pdf"]) == clients.BUSY_TRIES
    assert stats.error_kinds() == {f"public-standings-pdf: HTTP 429 {clients.BUSY_TRIES} times in a row": 1,
                                   "public-standings: HTTP 429": 1}


def test_retry_after_is_read_as_seconds_or_a_date_and_bounded():
    assert clients.retry_after(httpx.Response(429, headers={"Retry-After": "3"})) == 3
    assert clients.retry_after(httpx.Response(429, headers={"Retry-After": "86400"})) == clients.BUSY_WAIT_MAX
    assert clients.retry_after(httpx.Response(429, headers={"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"})) == 0
    assert clients.retry_after(httpx.Response(429)) == clients.BUSY_WAIT_DEFAULT


GAME = {"id": 1, "number": 1, "tournament": "q", "tables": [
    {"id": 11, "number": 1, "seats": [{"entry": 1, "player": "A"}, {"entry": 2, "player": "B"}]},
    {"id": 12, "number": 2, "seats": [{"entry": 3, "player": "C"}, {"entry": 4, "player": "D"}]}]}


def test_referees_whose_server_times_out_give_up_counted_and_the_game_returns(monkeypatch):
    monkeypatch.setattr(clients, "RETRY_PAUSE", 0.01)
    stats, signed_off = Stats(), {}

    async def play():
        async with Clients("http://test", transport=raising(httpx.ReadTimeout)) as client:
            until = time.monotonic() + 0.2
            tablets = [Tablet(client, "http://test", f"r{i}", "pw", stats, until) for i in range(2)]
            await play_game(tablets, GAME, {11: [10, 5], 12: [3, 10]}, 0, random.Random(1), signed_off)

    run(play())  # returns: no RequestFailed, no ReadTimeout out of it
    assert signed_off == {}
    kinds = stats.error_kinds()
    assert set(kinds) == {"referee: login page: ReadTimeout"}
    assert kinds["referee: login page: ReadTimeout"] >= 2


def test_a_tap_without_retries_raises_request_failed_not_the_http_error():
    stats = Stats()

    async def tap():
        async with Clients("http://test", transport=raising(httpx.ConnectTimeout)) as client:
            await Tablet(client, "http://test", "r", "pw", stats).request("referee: sheet", "GET", "/referee/")

    with pytest.raises(RequestFailed):
        run(tap())
    assert stats.error_kinds() == {"referee: login page: ConnectTimeout": 1}


# --- the whole run, with a stand-in stack --------------------------------------------------------------------

SEED = {"organizer": ["organizer", "pw"], "referees": [["r1", "pw"], ["r2", "pw"]], "games": [GAME],
        "tournaments": ["q"], "ruleset": "cnc-2022", "seating_target": {"slug": "s", "stage": 1, "players": 9},
        "public": {"public-standings": "/t/q/standings/", "public-version": "/t/q/version/",
                   "public-standings-pdf": "/t/q/standings.pdf"}}
ALL_LOST = {"problems": {"every result stored": ["game 1 of q, table 1: not signed off (None)",
                                                 "game 1 of q, table 2: not signed off (None)"]},
            "lost_by_game": {"1": 2}, "tables": 2}


class StandInStack:
    """What load.py and chaos.py ask of stack.Stack, without processes; `fail` names the step that raises."""

    fail: str | None = None
    made: list["StandInStack"] = []

    def __init__(self, name, port, redis_port, workers, replicas=2, cache_redis_port=None):
        self.database, self.workers_per_replica, self.workers = f"catan_{name}", workers, workers * replicas
        self.base_url, self.site_url, self.site_host = "http://test", "https://catan.test", "catan.test"
        self.replica_ports, self.replicas = [port + 10 * (i + 1) for i in range(replicas)], {}
        self.redis_port, self.cache_redis_port = redis_port, cache_redis_port or redis_port + 2
        self.metrics_token = "token"
        self.dir, self.stopped, self.celery = StandInStack.folder, False, None
        StandInStack.made.append(self)

    def https_context(self):
        return True

    def stop_replica(self, number):
        self.replicas.pop(number, None)

    def start_replica(self, number):
        self.replicas[number] = object()

    def start_all(self, celery_concurrency=1, beat=True):
        self._step("gunicorn")

    def _step(self, name):
        if name == self.fail:
            raise RuntimeError(f"{name} did not start within 60 s")

    def prepare(self):
        self._step("prepare")

    def start_redis(self):
        self._step("redis")

    def start_gunicorn(self):
        self._step("gunicorn")

    def start_celery(self, concurrency=1):
        self._step("celery")

    def django_script(self, module, *args):
        self._step(module)
        if module == "verify":
            StandInStack.verified = json.loads(Path(args[0]).read_text())
        return dict(SEED) if module == "seed" else ALL_LOST

    def server_cpu_seconds(self):
        return 0.0

    def worker_pids(self):
        return []

    def stop_all(self):
        self.stopped = True
        return []

    def drop_database(self):
        pass


@pytest.fixture
def stand_in(monkeypatch, tmp_path):
    StandInStack.folder, StandInStack.fail, StandInStack.made = tmp_path, None, []
    transport = {"now": raising(httpx.ReadTimeout)}
    for module in (load, chaos):
        monkeypatch.setattr(module, "Stack", StandInStack)
        monkeypatch.setattr(module, "new_http_client", lambda base_url, host=None, verify=True: Clients(
            base_url, host, transport=transport["now"]))
    monkeypatch.setattr(clients, "RETRY_PAUSE", 0.01)
    monkeypatch.setattr(load, "RETRY_SECONDS", 0.01)
    monkeypatch.setattr(load, "ANNOUNCE_WAIT", 0.2)
    monkeypatch.setattr(load, "AFTER_LAST_SIGN_OFF", 0.1)
    monkeypatch.setattr(live_update, "PROBE_SECONDS", 0.05)
    monkeypatch.setattr(chaos, "READERS_FIRST", 0)
    monkeypatch.setattr(chaos, "FAULT_AFTER", 0)
    monkeypatch.setattr(chaos, "RECOVERY_SECONDS", 0.2)
    monkeypatch.setattr(chaos, "PHASE_SECONDS", 2)
    monkeypatch.setattr(chaos.Chaos, "none", lambda self, notes: asyncio.sleep(0))
    return transport


QUICK_LOAD = ["--clients", "3", "--dwell", "1", "--min-seconds", "0.3", "--max-seconds", "0.5", "--warm-up", "0",
              "--throughput-seconds", "0.2"]


@pytest.mark.parametrize("error", [httpx.ReadTimeout, httpx.ConnectTimeout])
def test_make_load_on_a_server_that_never_answers_prints_its_report_and_fails(stand_in, capsys, error):
    stand_in["now"] = raising(error)

    assert load.main(QUICK_LOAD) == 1

    out = capsys.readouterr().out
    assert "Traceback" not in out
    assert f"referee: login page: {error.__name__} × " in out
    assert f"live probe: version, anonymous: {error.__name__} × " in out
    assert "Public pages:" in out and "PDFs (a 429" in out and "Referees: 0 of 2 tables signed off (game 1: 0/2)" in out
    assert "  1 replica × 2 workers: " in out and "  2 replicas × 2 workers: " in out  # side by side
    assert "  error: throughput measure × " in out
    assert f"/metrics could not be read: {error.__name__}" in out
    assert "FAIL every result stored: 2 problem(s)" in out
    assert "make load: FAILED (a check failed; " in out and "request(s) failed)" in out
    assert StandInStack.made[0].stopped


def test_make_load_whose_stack_does_not_start_says_why_and_fails(stand_in, capsys):
    StandInStack.fail = "gunicorn"

    assert load.main(QUICK_LOAD) == 1

    out = capsys.readouterr().out
    assert "The run stopped early: RuntimeError: gunicorn did not start within 60 s" in out
    assert "No figures: the run stopped before the readers started." in out
    assert "make load: FAILED (the run stopped early; a check failed)" in out
    assert StandInStack.made[0].stopped


def test_make_load_that_cannot_seed_fails_with_the_reason(stand_in, capsys):
    StandInStack.fail = "prepare"

    assert load.main(QUICK_LOAD) == 1

    out = capsys.readouterr().out
    assert "No figures: the stack did not start." in out
    assert "make load: FAILED (the run stopped early)" in out


def test_checks_that_cannot_run_are_not_taken_for_passed(stand_in, capsys):
    StandInStack.fail = "verify"

    assert load.main(QUICK_LOAD) == 1

    out = capsys.readouterr().out
    assert "  ?    every result stored: not checked" in out
    assert "  FAIL the checks could run: 1 problem(s)\n         RuntimeError: verify did not start within 60 s" in out
    assert "  ok   every result stored" not in out


def passing_run() -> tuple[load.Run, SimpleNamespace]:
    """A run in which every request was answered, every sign-off announced after 1.5 s, every check ok."""
    run_ = load.Run(signed_off={11: 10.0, 12: 10.0}, referee_seconds=20, checks={"problems": {}, "tables": 2})
    run_.live.newest += [(10.1, "B")]
    run_.live.announced += [(11.5, "B")]
    run_.referees.ok("referee: sign off", 9.0, 0.2)

    run_.crowd = load.Crowd(None, SEED["public"], 0, 30)  # no readers: the figures below are theirs
    run_.crowd.seconds = 60
    run_.crowd.stats.ok("public-standings", 1.0, 0.05)
    run_.crowd.stats.ok("public-standings-pdf", 2.0, 0.4)
    run_.crowd.stats.refused("public-standings-pdf", 3.0)
    return run_, load.parse([])


def test_the_verdict_passes_only_without_errors_and_failed_checks():
    run_, options = passing_run()
    lines, ok = load.report(run_, SEED, options, "before", "after")
    text = "\n".join(lines)
    assert ok, text
    assert "make load: PASSED; targets: public p95 met, live update p95 met" in text
    assert "PDFs together: 2 requests, 0 errors, 1 answered 429, p50 400 ms" in text
    assert "announced to readers after p50 1.5 s, p95 1.5 s" in text

    run_.referees.error("referee: sign", 12.0, "ReadTimeout")
    lines, ok = load.report(run_, SEED, options, "before", "after")
    assert not ok
    assert "make load: FAILED (1 request(s) failed)" in lines[-1]
    assert "  error: referee: sign: ReadTimeout × 1" in lines


def test_a_sign_off_never_announced_fails_the_run():
    run_, options = passing_run()
    run_.signed_off[13] = 20.0  # after the last version the readers were shown
    lines, ok = load.report(run_, SEED, options, "before", "after")
    assert not ok
    assert "  FAIL every sign-off announced to readers: 1 problem(s)" in lines
    assert lines[-1].strip() == "make load: FAILED (a check failed); targets: public p95 met, live update p95 MISSED"


def test_make_chaos_on_a_server_that_never_answers_reports_every_phase_and_fails(stand_in, capsys, monkeypatch):
    stand_in["now"] = raising(httpx.ConnectTimeout)
    games = [{**GAME, "id": number, "number": number,
              "tables": [{**table, "id": 10 * number + i} for i, table in enumerate(GAME["tables"])]}
             for number in range(1, len(chaos.PHASES) + 3)]  # a game per fault and two more, as seed.py makes
    monkeypatch.setitem(SEED, "games", games)

    code = chaos.main(["--clients", "2", "--dwell", "1", "--max-seconds", "0.3", "--celery-wait", "0.1"])

    out = capsys.readouterr().out
    assert code == 1
    assert "Traceback" not in out
    for name, _method in chaos.PHASES:
        assert f"\n{name:<32} " in out  # a row per fault, each run to its end
    assert "the harness could not complete this phase: " in out  # the stand-in cannot stop Redis: said, not raised
    assert "error referee: login page: ConnectTimeout × " in out
    assert "make chaos: FAILED (" in out and "2 result(s) lost" in out and "no recovery after: none (baseline)" in out
    assert [game["number"] for game in StandInStack.verified["games"]] == list(range(1, len(chaos.PHASES) + 1))


# --- the live-update delay -----------------------------------------------------------------------------------

def test_the_live_update_delay_counts_only_versions_that_include_the_sign_off():
    log = LiveLog(newest=[(9.0, "A"), (10.2, "B"), (11.0, "C")],
                  announced=[(9.5, "A"), (10.5, "A"), (10.8, "Z"), (11.5, "B")])
    # Z was shown after the sign-off but was never the newest after it: it may not include it.
    assert announced_delays(log, {1: 10.0, 2: 12.0}) == {1: 1.5, 2: None}


def test_every_open_page_delay_is_the_last_open_page_to_learn_pages_opened_or_left_meanwhile_aside():
    log = LiveLog(newest=[(10.2, "B")])
    for visit, seen in {"open": [(8.0, "A"), (12.0, "A"), (14.0, "B")], "also open": [(9.0, "A"), (12.5, "B")],
                        "opened after": [(11.0, "B")], "left before": [(9.0, "A"), (10.1, "A")]}.items():
        for when, version in seen:
            log.page(visit, when, version)
    assert page_delays(log, {1: 10.0}) == {1: 4.0}


def test_the_load_report_reads_what_metrics_counted_across_the_replicas():
    text = ('django_http_requests_latency_seconds_by_view_method_count{method="GET",view="public-standings"} 120.0\n'
            'django_http_requests_latency_seconds_by_view_method_count{method="POST",view="referee-sign"} 30.0\n'
            'catan_emails_total{outcome="sent"} 4.0\ncatan_emails_total{outcome="failed"} 1.0\n')

    def handler(request: httpx.Request) -> httpx.Response:
        ok = request.headers.get("Authorization") == "Bearer s3cret"
        return httpx.Response(200 if ok else 401, text=text if ok else "")

    async def read(token):
        async with Clients("http://test", transport=httpx.MockTransport(handler)) as client:
            return await load.metrics_read(client, token)

    assert run(read("s3cret")) == ("/metrics at the end: 150 requests counted by the replicas' workers together, "
                                   "4 emails sent")
    assert run(read("other")) == "/metrics could not be read: HTTPStatusError"
