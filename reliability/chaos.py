"""`make chaos`: one fault after another while spectators read and referees play, and what each did.

Each phase plays one game (20 tables at once, signed off together) and injects one fault a couple of
seconds in: Redis stopped, Redis frozen (SIGSTOP … SIGCONT), a gunicorn worker killed (SIGKILL),
the app's database connections terminated (`pg_terminate_backend`), the Celery worker's pool process
killed in the middle of a seating task. Referees tap again after an error, as they would. The run
passes when no result is lost and the site recovers by itself after each fault (health ok, pages 200).
"""
import argparse
import asyncio
import os
import random
import re
import signal
import sys
import time

from .clients import Stats, Tablet, new_http_client, play_game
from .load import Crowd, api_standings, print_checks, results_for, tablets_for, verify
from .stack import Stack, children, log, machine_note, psql

PHASE_SECONDS = 150
"""The most a phase's game may take (a bound on the run; a game not finished shows as lost results)."""
HOLD_SECONDS = 8
"""How long Redis stays stopped or frozen."""
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
        except Exception as error:  # noqa: BLE001 - any failure is what we report
            return f"/healthz: {type(error).__name__}"
        return (f"/healthz {response.status_code} status={body.get('status')} cache={body.get('cache')} "
                f"database={body.get('database')} in {1000 * (time.monotonic() - started):.0f} ms")

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

    async def redis_frozen(self, notes: list[str]) -> None:
        self.stack.signal_redis(signal.SIGSTOP)
        notes.append("redis-server frozen (SIGSTOP)")
        await self.hold(notes)
        self.stack.signal_redis(signal.SIGCONT)
        notes.append("redis-server thawed (SIGCONT)")

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

    async def connections_terminated(self, notes: list[str]) -> None:
        for _ in range(3):
            count = await asyncio.to_thread(self.stack.terminate_app_connections)
            notes.append(f"pg_terminate_backend on {count} connection(s) to {self.stack.database}")
            await asyncio.sleep(1)

    async def _job(self) -> tuple[str, str] | None:
        try:
            row = await asyncio.to_thread(psql, "SELECT status || '|' || message FROM scheduling_planningjob "
                                                "ORDER BY id DESC LIMIT 1", self.stack.database)
        except Exception:  # noqa: BLE001 - a schema without planning jobs: only the page tells
            return None
        status, _, message = row.partition("|")
        return (status, message) if status else None

    async def _plan(self, target: dict, seed: int) -> str:
        """The organizer opens the stage's page and presses "Generate"; what the page then says (its messages)."""
        stage = f"/organize/{target['slug']}/stages/{target['stage']}/"
        await self.organizer.request("organizer: stage page", "GET", stage)
        page = await self.organizer.request("organizer: generate", "POST",
                                            f"/organize/{target['slug']}/stages/{target['stage']}/generate/",
                                            {"seed": str(seed)})
        return " ".join(re.sub(r"\s+", " ", m).strip() for m in MESSAGE.findall(page.text)) or "(no message)"

    async def _kill_when_busy(self, main: int, ticks: dict[int, int]) -> int | None:
        """SIGKILL the pool process as soon as it computes (20 ms of CPU): in the middle of the task."""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            for pid in children(main):
                if _cpu_ticks(pid) - ticks.get(pid, 0) >= 2:
                    os.kill(pid, signal.SIGKILL)
                    return pid
            await asyncio.sleep(0.005)
        return None

    async def celery_killed(self, notes: list[str]) -> None:
        target = self.seed["seating_target"]
        main = self.stack.celery.pid
        watcher = asyncio.create_task(self._kill_when_busy(main, {pid: _cpu_ticks(pid) for pid in children(main)}))
        said = await self._plan(target, seed=5)
        notes.append(f"organizer asked for the seating of {target['slug']} ({target['players']} players): {said}")
        victim = await watcher
        if victim is None:
            notes.append("the task never started on the worker (planned in the request?): nothing to kill")
            return
        killed = time.monotonic()
        job = await self._job()
        if job and job[0] == "succeeded":
            notes.append(f"Celery pool process {victim} killed (SIGKILL), but the task had already finished: "
                         f"not mid-task ({job})")
        else:
            notes.append(f"Celery pool process {victim} killed (SIGKILL) mid-task; the job is now {job}")
        await asyncio.sleep(1)
        notes.append(f"Celery main process {'alive' if self.stack.celery.poll() is None else 'DEAD'}, "
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


def _cpu_ticks(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])  # utime + stime


async def recovered(client, stack: Stack, standings: str, limit: float = 90) -> float | None:
    """Seconds until /healthz says ok, every worker is up and the standings answer 200; None past `limit`."""
    started = time.monotonic()
    while time.monotonic() - started < limit:
        try:
            health = await client.get("/healthz")
            page = await client.get(standings)
            if (health.status_code == 200 and health.json().get("status") == "ok" and page.status_code == 200
                    and len(stack.worker_pids()) == stack.workers):
                return time.monotonic() - started
        except Exception:  # noqa: BLE001, S110 - still down: look again
            pass
        await asyncio.sleep(0.25)
    return None


PHASES = [("none (baseline)", "none"), ("Redis stopped", "redis_stopped"),
          ("Redis frozen (SIGSTOP)", "redis_frozen"), ("gunicorn worker killed", "worker_killed"),
          ("DB connections terminated", "connections_terminated"), ("Celery worker killed mid-task", "celery_killed")]


async def drive(stack: Stack, seed: dict, options) -> tuple[list[dict], dict, dict]:
    async with new_http_client(stack.base_url, options.clients + 40) as client:
        referees = Stats()
        until = time.monotonic() + options.max_seconds
        tablets = await tablets_for(client, stack, seed["referees"], referees, retry_until=until)
        organizer = Tablet(client, stack.base_url, *seed["organizer"], Stats(), retry_until=until)
        await organizer.login()
        crowd = Crowd(client, seed["public"], options.clients, options.dwell)
        chaos = Chaos(stack, client, seed, organizer, options.celery_wait)
        entered = results_for(seed["games"])
        rows: list[dict] = []
        try:
            await phases(stack, seed, options, tablets, crowd, chaos, referees, entered, rows, client)
        finally:
            await crowd.finish()
        standings = await api_standings(client, seed["tournaments"])
    return rows, {"entered": entered, "standings": standings}, {"crowd": crowd, "referees": referees}


async def phases(stack: Stack, seed: dict, options, tablets, crowd: Crowd, chaos: Chaos, referees: Stats,
                 entered: dict, rows: list[dict], client) -> None:
    """Each fault while its game is played; a row per fault of what it cost."""
    rng = random.Random(5)
    await asyncio.sleep(3)
    for (name, method), game in zip(PHASES, seed["games"]):
        log(f"--- {name}, while game {game['number']} of {game['tournament']} is played")
        started = time.monotonic()
        play = asyncio.create_task(play_game(tablets, game, entered, options.referee_think, rng))
        await asyncio.sleep(2)
        notes: list[str] = []
        await getattr(chaos, method)(notes)
        recovery = await recovered(client, stack, seed["public"]["public-standings"])
        if method == "celery_killed":  # recovered: the stage's seating is planned (retried or planned again)
            recovery = chaos.celery_recovery if chaos.celery_ok else None
        try:
            await asyncio.wait_for(play, PHASE_SECONDS)
        except TimeoutError:
            notes.append(f"the referees had not finished the game after {PHASE_SECONDS} s: stopped")
        ended = time.monotonic()
        for note in notes:
            log(f"    {note}")
        errors = {"public": crowd.stats.errors_between(started, ended),
                  "referees": referees.errors_between(started, ended)}
        kinds = {**crowd.stats.error_kinds(started, ended), **referees.error_kinds(started, ended)}
        back = "never" if recovery is None else f"in {recovery:.1f} s"
        log(f"    errors during: {errors} {kinds or ''}; recovered {back} after the fault ended; "
            f"game played in {ended - started:.0f} s")
        rows.append({"fault": name, "game": game["id"], "errors": errors, "kinds": kinds, "recovery": recovery,
                     "notes": notes, "seconds": ended - started})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=100, help="concurrent public readers")
    parser.add_argument("--dwell", type=float, default=30.0)
    parser.add_argument("--referee-think", type=float, default=1.0)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--max-seconds", type=float, default=420, help="referees stop tapping again after this")
    parser.add_argument("--celery-wait", type=float, default=150,
                        help="seconds to wait for a killed seating task to be retried or reported failed")
    parser.add_argument("--port", type=int, default=8851)
    parser.add_argument("--redis-port", type=int, default=6391)
    parser.add_argument("--keep", action="store_true")
    options = parser.parse_args()

    stack = Stack("load", options.port, options.redis_port, options.workers)
    before = machine_note()
    try:
        stack.prepare()
        stack.start_redis()
        seed = stack.django_script("seed", "--played", "2", "--seating-target")
        log(f"seeded {', '.join(seed['tournaments'])}: {len(seed['games'])} games of 20 tables; "
            f"seating target {seed['seating_target']['slug']}")
        stack.start_gunicorn()
        stack.start_celery()
        rows, outcome, stats = asyncio.run(drive(stack, seed, options))
        report = verify(stack, seed, outcome["entered"], outcome["standings"])
    finally:
        stack.stop_all()
        if not options.keep:
            stack.drop_database()

    print(f"\n== make chaos, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: {options.clients} readers, "
          f"20 referees, {options.workers} gunicorn workers, 1 Celery worker ==")
    print(f"machine: before {before}; after {machine_note()}\n")
    print(f"{'fault':<32} {'errors public':>13} {'errors referees':>15} {'recovery s':>10} {'lost results':>12}")
    lost_total = 0
    for row in rows:
        lost = report["lost_by_game"].get(str(row["game"]), 0)
        lost_total += lost
        recovery = "never" if row["recovery"] is None else f"{row['recovery']:.1f}"
        print(f"{row['fault']:<32} {row['errors']['public']:>13} {row['errors']['referees']:>15} {recovery:>10} "
              f"{lost:>12}")
    print("\nWhat happened:")
    for row in rows:
        print(f"  {row['fault']}:")
        for note in row["notes"]:
            print(f"    - {note}")
        for kind, count in row["kinds"].items():
            print(f"    - error {kind} × {count}")
    checks_ok = print_checks(report)
    ok = checks_ok and lost_total == 0 and all(row["recovery"] is not None for row in rows)
    print(f"\nmake chaos: {'PASSED' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
