"""`make chaos`: one fault after another while spectators read and referees play, and what each did.

Each phase plays one game (20 tables at once, signed off together) and injects one fault a couple of
seconds in: Redis stopped, Redis frozen (SIGSTOP … SIGCONT), a gunicorn worker killed (SIGKILL),
the app's database connections terminated (`pg_terminate_backend`), the Celery worker's pool process
killed in the middle of a seating task. Referees tap again after an error, as they would. The run
passes when no result is lost and the site recovers by itself after each fault (health ok, pages 200).

Whatever happens (timeouts, refused connections, a fault that cannot be injected, a phase stopped at its time
bound), the run ends with its report: a row per fault run, what each did, the checks and a verdict.
"""
import argparse
import asyncio
import os
import random
import re
import signal
import sys
import time
from dataclasses import dataclass, field

from .clients import Stats, Tablet, client_address, play_game
from .connections import new_http_client
from .load import (
    Crowd,
    api_standings,
    check_lines,
    checks_of,
    describe,
    opening,
    progress,
    results_for,
    tablets_for,
    wind_up,
)
from .processes import children, cpu_seconds
from .stack import Stack, log, machine_note, psql

PHASE_SECONDS = 150
"""The most a phase's game may take (a bound on the run; a game not finished shows as lost results)."""
HOLD_SECONDS = 8
"""How long Redis stays stopped or frozen."""
REPLICA_DOWN_SECONDS = 5
"""How long a killed replica stays down before it is started again."""
READERS_FIRST = 3
"""Seconds the readers read before the first phase starts."""
FAULT_AFTER = 2
"""Seconds into a phase's game when its fault is injected."""
RECOVERY_SECONDS = 90
"""The longest wait for the site to be back after a fault; past it, the fault's recovery is "never"."""
MESSAGE = re.compile(r'<li class="message [^"]*">(.*?)</li>', re.S)
FAILED_PANEL = re.compile(r'class="panel planning-failed".*?<p>(.*?)</p>', re.S)


class Chaos:
    def __init__(self, stack: Stack, client, seed: dict, organizer: Tablet, celery_wait: float):
        self.stack, self.client, self.seed, self.organizer = stack, client, seed, organizer
        self.celery_wait = celery_wait
        self.celery_ok = True
        self.celery_recovery: float | None = 0.0

    async def health_sample(self) -> str:
        started = time.monotonic()
        try:
            response = await self.client.get("/healthz")
            body = response.json()
        except Exception as error:  # any failure is what we report
            return f"/healthz: {type(error).__name__}"
        return (f"/healthz {response.status_code} status={body.get('status')} instance={body.get('instance')} "
                f"cache={body.get('cache')} database={body.get('database')} broker={body.get('broker')} "
                f"in {1000 * (time.monotonic() - started):.0f} ms")

    async def hold(self, notes: list[str]) -> None:
        for second in range(HOLD_SECONDS):
            await asyncio.sleep(1)
            if second in (1, HOLD_SECONDS - 2):
                notes.append(f"during: {await self.health_sample()}")

    async def none(self, notes: list[str]) -> None:
        await asyncio.sleep(2)
        notes.append("no fault: the baseline")

    async def redis_stopped(self, notes: list[str]) -> None:
        await asyncio.to_thread(self.stack.stop_redis)
        notes.append(f"redis-server on {self.stack.redis_port} stopped (SIGTERM)")
        await self.hold(notes)
        await asyncio.to_thread(self.stack.start_redis)
        notes.append("redis-server started again (empty)")
        await self.supervise_celery(notes)

    async def redis_frozen(self, notes: list[str]) -> None:
        self.stack.signal_redis(signal.SIGSTOP)
        notes.append("redis-server frozen (SIGSTOP)")
        await self.hold(notes)
        self.stack.signal_redis(signal.SIGCONT)
        notes.append("redis-server thawed (SIGCONT)")
        await self.supervise_celery(notes)

    async def supervise_celery(self, notes: list[str]) -> None:
        """As docker-compose's `restart: unless-stopped` does: a worker that exited is started again, and said so
        (kombu 5.7 lets the worker die when the broker goes away while it holds unacknowledged messages)."""
        celery = self.stack.celery
        if celery is None or celery.poll() is None:
            return
        last = [line for line in (self.stack.dir / "celery.log").read_text(errors="replace").splitlines()
                if "CRITICAL" in line or "Unrecoverable" in line][-1:]
        notes.append(f"the Celery worker exited (code {celery.returncode}: {last[0][-160:] if last else 'no message'});"
                     " started again, as the deployment's restart policy does")
        await asyncio.to_thread(self.stack.start_celery)

    async def worker_killed(self, notes: list[str]) -> None:
        victim = self.stack.worker_pids()[0]
        os.kill(victim, signal.SIGKILL)
        notes.append(f"gunicorn worker {victim} killed (SIGKILL)")
        for _ in range(100):
            await asyncio.sleep(0.1)
            pids = self.stack.worker_pids()
            if len(pids) == self.stack.workers and victim not in pids:
                notes.append(f"master replaced it: workers now {pids}")
                return

    async def replica_killed(self, notes: list[str]) -> None:
        """A replica's machine dies: its master and workers SIGKILLed at once, started again a few seconds later
        (the deployment's restart policy); meanwhile nginx sends everything to the other one."""
        pids = await asyncio.to_thread(self.stack.kill_replica, 1)
        notes.append(f"replica web-1 killed (SIGKILL to its master and workers {pids}); nginx sends its share to "
                     "web-2 (a GET it had not answered yet is sent there again; a POST is not)")
        await asyncio.sleep(REPLICA_DOWN_SECONDS)
        for _ in range(3):
            notes.append(f"during: {await self.health_sample()}")
        await asyncio.to_thread(self.stack.start_replica, 1)
        notes.append(f"web-1 started again after {REPLICA_DOWN_SECONDS} s, as the deployment's restart policy does")

    async def connections_terminated(self, notes: list[str]) -> None:
        for _ in range(3):
            count = await asyncio.to_thread(self.stack.terminate_app_connections)
            notes.append(f"pg_terminate_backend on {count} connection(s) to {self.stack.database}")
            await asyncio.sleep(1)

    async def _job(self, after: int = 0) -> tuple[str, str] | None:
        """The newest planning job's status and message (one newer than job `after`), if any."""
        found = await self._job_row(after)
        return found[1:] if found else None

    async def _job_row(self, after: int = 0) -> tuple[int, str, str] | None:
        try:
            row = await asyncio.to_thread(psql, "SELECT id || '|' || status || '|' || message FROM "
                                                f"scheduling_planningjob WHERE id > {int(after)} ORDER BY id DESC "
                                                "LIMIT 1", self.stack.database)
        except Exception:  # a schema without planning jobs: only the page tells
            return None
        pk, _, rest = row.partition("|")
        status, _, message = rest.partition("|")
        return (int(pk), status, message) if status else None

    async def _plan(self, target: dict, seed: int) -> str:
        """The organizer opens the stage's page and presses "Generate"; what the page then says (its messages)."""
        stage = f"/organize/{target['slug']}/stages/{target['stage']}/"
        await self.organizer.request("organizer: stage page", "GET", stage)
        page = await self.organizer.request("organizer: generate", "POST",
                                            f"/organize/{target['slug']}/stages/{target['stage']}/generate/",
                                            {"seed": str(seed)})
        return " ".join(re.sub(r"\s+", " ", m).strip() for m in MESSAGE.findall(page.text)) or "(no message)"

    async def _kill_when_busy(self, main: int, after: int) -> int | None:
        """SIGKILL the pool process once the planning job (newer than job `after`) runs and the process computes
        (20 ms of CPU): in the middle of the task. The worker also runs other jobs (the pages' refresh, emails), so
        the job's row must say it is running first; with one pool process, that process is running it."""
        deadline, job = time.monotonic() + 30, None
        while time.monotonic() < deadline:
            job = await self._job(after)
            if job and job[0] != "queued":
                break
            await asyncio.sleep(0.05)
        if not (job and job[0] == "running"):
            return None
        used = {pid: cpu_seconds(pid) for pid in children(main)}
        while time.monotonic() < deadline:
            for pid in children(main):
                if cpu_seconds(pid) - used.get(pid, 0) >= 0.02:
                    os.kill(pid, signal.SIGKILL)
                    return pid
            await asyncio.sleep(0.005)
        return None

    async def celery_killed(self, notes: list[str]) -> None:
        target, celery = self.seed["seating_target"], self.stack.celery
        if celery is None:
            raise RuntimeError("the Celery worker is not running")
        main, before = celery.pid, await self._job_row()
        after = before[0] if before else 0
        watcher = asyncio.create_task(self._kill_when_busy(main, after))
        said = await self._plan(target, seed=5)
        notes.append(f"organizer asked for the seating of {target['slug']} ({target['players']} players): {said}")
        victim = await watcher
        if victim is None:
            notes.append(f"the task was not seen running on the worker (the job: {await self._job(after)}): "
                         "nothing killed")
            return
        killed = time.monotonic()
        job = await self._job()
        if job and job[0] == "succeeded":
            notes.append(f"Celery pool process {victim} killed (SIGKILL), but the task had already finished: "
                         f"not mid-task ({job})")
        else:
            notes.append(f"Celery pool process {victim} killed (SIGKILL) mid-task; the job is now {job}")
        await asyncio.sleep(1)
        notes.append(f"Celery main process {'alive' if celery.poll() is None else 'DEAD'}, "
                     f"pool now {children(main)}")
        await self._until_settled(notes, target, seconds=self.celery_wait)
        job = await self._job()
        if not (job and job[0] == "succeeded"):
            said = await self._plan(target, seed=5)
            notes.append(f"organizer plans again {time.monotonic() - killed:.0f} s after the kill: {said}")
            await self._until_settled(notes, target, seconds=60)
        job = await self._job()
        self.celery_ok = bool(job and job[0] == "succeeded")
        self.celery_recovery = time.monotonic() - killed
        notes.append(f"seating {'planned' if self.celery_ok else 'NOT planned'} "
                     f"{time.monotonic() - killed:.0f} s after the kill: {job}")

    async def _until_settled(self, notes: list[str], target: dict, seconds: float) -> None:
        """Poll the job (and the organizer's page) until it succeeded or failed, or time runs out."""
        started = time.monotonic()
        while time.monotonic() - started < seconds:
            job = await self._job()
            if job and job[0] in ("succeeded", "failed"):
                break
            page = await self.organizer.request("organizer: stage page", "GET",
                                                f"/organize/{target['slug']}/stages/{target['stage']}/")
            if failed := FAILED_PANEL.search(page.text):
                text = re.sub(r"<[^>]+>|\s+", " ", failed.group(1)).strip()
                notes.append(f"organizer's page after {time.monotonic() - started:.0f} s: Planning failed: {text}")
                return
            await asyncio.sleep(1)
        notes.append(f"job after {time.monotonic() - started:.0f} s: {await self._job()}")


async def recovered(client, stack: Stack, standings: str) -> float | None:
    """Seconds until /healthz says ok, every worker is up and the standings answer 200; None past RECOVERY_SECONDS."""
    started = time.monotonic()
    while time.monotonic() - started < RECOVERY_SECONDS:
        try:
            health = await client.get("/healthz")
            page = await client.get(standings)
            if (health.status_code == 200 and health.json().get("status") == "ok" and page.status_code == 200
                    and len(stack.worker_pids()) == stack.workers):
                return time.monotonic() - started
        except Exception:  # still down: look again
            pass
        await asyncio.sleep(0.25)
    return None


PHASES = [("none (baseline)", "none"), ("Redis stopped", "redis_stopped"),
          ("Redis frozen (SIGSTOP)", "redis_frozen"), ("gunicorn worker killed", "worker_killed"),
          ("replica killed (SIGKILL)", "replica_killed"),
          ("DB connections terminated", "connections_terminated"), ("Celery worker killed mid-task", "celery_killed")]


@dataclass
class ChaosRun:
    """What a run has done so far, filled in as it goes, so the report is printed whatever stopped the run."""

    rows: list[dict] = field(default_factory=list)
    crowd: Crowd | None = None
    referees: Stats = field(default_factory=Stats)
    staff: Stats = field(default_factory=Stats)
    """The organizer's requests (the seating phase) and the harness's final read of the standings."""
    entered: dict[int, list[int]] = field(default_factory=dict)
    standings: dict[str, list] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    checks: dict | None = None
    failure: str | None = None


async def drive(stack: Stack, seed: dict, options, run: ChaosRun) -> None:
    async with new_http_client(stack.base_url, stack.site_host, stack.https_context()) as client:
        until = time.monotonic() + options.max_seconds
        tablets = await tablets_for(client, stack, seed["referees"], run.referees, retry_until=until)
        username, password = seed["organizer"]
        organizer = Tablet(client, stack.site_url, username, password, run.staff, until, client_address(3, 2),
                           "organizer")
        run.crowd = crowd = Crowd(client, seed["public"], options.clients, options.dwell)
        chaos = Chaos(stack, client, seed, organizer, options.celery_wait)
        try:
            await asyncio.sleep(READERS_FIRST)
            rng = random.Random(5)
            for (name, method), game in zip(PHASES, seed["games"]):
                run.rows.append(await phase(stack, seed, options, tablets, crowd, chaos, run, name, method, game,
                                            rng, client))
        finally:
            await crowd.finish()
        run.standings = await api_standings(client, seed["tournaments"], run.staff)


async def phase(stack: Stack, seed: dict, options, tablets, crowd: Crowd, chaos: Chaos, run: ChaosRun, name: str,
                method: str, game: dict, rng: random.Random, client) -> dict:
    """One fault while its game is played, bounded by PHASE_SECONDS; a row of what it cost and what was done."""
    log(f"--- {name}, while game {game['number']} of {game['tournament']} is played")
    started = time.monotonic()
    signed_off: dict[int, float] = {}
    play = asyncio.create_task(play_game(tablets, game, run.entered, options.referee_think, rng, signed_off))
    notes: list[str] = []
    recovery, harness = None, None
    try:
        await asyncio.sleep(FAULT_AFTER)
        await getattr(chaos, method)(notes)
        recovery = await recovered(client, stack, seed["public"]["public-standings"])
        if method == "celery_killed":  # recovered: the stage's seating is planned (retried or planned again)
            recovery = chaos.celery_recovery if chaos.celery_ok else None
    except Exception as error:  # said in the report; the run goes on to the next fault
        harness = describe(error)
        notes.append(f"the harness could not complete this phase: {harness}")
    try:
        await asyncio.wait_for(play, PHASE_SECONDS)
    except TimeoutError:
        notes.append(f"the referees had not finished the game after {PHASE_SECONDS} s: stopped; "
                     f"{progress([game], signed_off)}")
    ended = time.monotonic()
    for note in notes:
        log(f"    {note}")
    errors = {"public": crowd.stats.errors_between(started, ended),
              "referees": run.referees.errors_between(started, ended)}
    kinds = {**crowd.stats.error_kinds(started, ended), **run.referees.error_kinds(started, ended),
             **run.staff.error_kinds(started, ended)}
    back = "never" if recovery is None else f"in {recovery:.1f} s"
    log(f"    errors during: {errors} {kinds or ''}; recovered {back} after the fault ended; "
        f"game played in {ended - started:.0f} s")
    return {"fault": name, "game": game["id"], "errors": errors, "kinds": kinds, "recovery": recovery,
            "notes": notes, "seconds": ended - started, "ended": ended, "harness": harness}


def report(run: ChaosRun, seed: dict | None, options, before: str, after: str) -> tuple[list[str], bool]:
    """The report's lines and whether the run passed, from whatever the run got done."""
    lines, reasons = opening(f"make chaos, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: {options.clients} "
                             f"readers, {len(seed['referees']) if seed else '?'} referees, {options.replicas} replicas "
                             f"of {options.workers} gunicorn workers behind nginx (TLS), 1 Celery worker", run, before,
                             after)
    if seed is None:
        lines.append(f"\nNo figures: the stack did not start.\n\nmake chaos: FAILED ({'; '.join(reasons)})")
        return lines, False
    checks = checks_of(run, seed)
    lines += ["", f"{'fault':<32} {'errors public':>13} {'errors referees':>15} {'recovery s':>10} "
                  f"{'lost results':>12}"]
    lost_total = 0
    for row in run.rows:
        lost = "?" if checks["lost_by_game"] is None else checks["lost_by_game"].get(str(row["game"]), 0)
        lost_total += lost if isinstance(lost, int) else 0
        recovery = "never" if row["recovery"] is None else f"{row['recovery']:.1f}"
        lines.append(f"{row['fault']:<32} {row['errors']['public']:>13} {row['errors']['referees']:>15} "
                     f"{recovery:>10} {lost:>12}")
    not_run = [name for name, _method in PHASES[len(run.rows):]]
    if not_run:
        lines.append(f"not run: {', '.join(not_run)}")
        reasons.append(f"{len(not_run)} fault(s) not run")
    lines += ["", "What happened:"]
    for row in run.rows:
        lines.append(f"  {row['fault']}:")
        lines += [f"    - {note}" for note in row["notes"]]
        lines += [f"    - error {kind} × {count}" for kind, count in row["kinds"].items()]
    if run.rows:
        final = run.staff.error_kinds(run.rows[-1]["ended"])
        lines += [f"  after the last fault: error {kind} × {count}" for kind, count in final.items()]
    check, checks_ok = check_lines(checks)
    lines += ["", *check]
    if not checks_ok or lost_total:
        reasons.append("a check failed" if not lost_total else f"{lost_total} result(s) lost")
    if never := [row["fault"] for row in run.rows if row["recovery"] is None]:
        reasons.append(f"no recovery after: {', '.join(never)}")
    if broken := [row["fault"] for row in run.rows if row.get("harness")]:
        reasons.append(f"the harness failed during: {', '.join(broken)}")
    lines.append(f"\nmake chaos: {'FAILED (' + '; '.join(reasons) + ')' if reasons else 'PASSED'}")
    return lines, not reasons


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=100, help="concurrent public readers")
    parser.add_argument("--dwell", type=float, default=30.0)
    parser.add_argument("--referee-think", type=float, default=1.0)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per replica")
    parser.add_argument("--replicas", type=int, default=2, help="gunicorn replicas behind nginx")
    parser.add_argument("--max-seconds", type=float, default=420, help="referees stop tapping again after this")
    parser.add_argument("--celery-wait", type=float, default=150,
                        help="seconds to wait for a killed seating task to be retried or reported failed")
    parser.add_argument("--port", type=int, default=8851, help="nginx's; the replicas' are port + 10, port + 20")
    parser.add_argument("--redis-port", type=int, default=6391, help="the broker's")
    parser.add_argument("--cache-redis-port", type=int, default=6393)
    parser.add_argument("--name", default="load", help="the database catan_<name> and the folder /tmp/catan_<name>")
    parser.add_argument("--keep", action="store_true")
    options = parser.parse_args(argv)

    stack = Stack(options.name, options.port, options.redis_port, options.workers, options.replicas,
                  options.cache_redis_port)
    run, seed, before = ChaosRun(), None, machine_note()
    try:
        stack.prepare()
        stack.start_redis()
        seed = stack.django_script("seed", "--played", "3", "--seating-target")  # a game per fault
        seed["games"] = seed["games"][:len(PHASES)]  # the games no fault plays are left out of the checks
        run.entered = results_for(seed["games"])
        log(f"seeded {', '.join(seed['tournaments'])}: {len(seed['games'])} games of 20 tables; "
            f"seating target {seed['seating_target']['slug']}")
        stack.start_all(beat=False)
        asyncio.run(drive(stack, seed, options, run))
    except (Exception, KeyboardInterrupt) as error:  # the report says it, then the verdict
        run.failure = describe(error)
    wind_up(stack, run, seed, options.keep)
    lines, ok = report(run, seed, options, before, machine_note())
    print("\n" + "\n".join(lines), flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
