"""The stack's child processes: started in sessions of their own (Ctrl-C reaches only the stack, which stops each one
in order), stopped by pid with whatever they started, and read from /proc (their children, their CPU time)."""
import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path


def children(pid: int) -> list[int]:
    """Direct child processes of `pid` (gunicorn's workers, Celery's pool processes)."""
    try:
        found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []
    return [int(p) for p in found]


def descendants(pid: int) -> list[int]:
    """Every process below `pid`, children first."""
    found, stack = [], children(pid)
    while stack:
        child = stack.pop(0)
        found.append(child)
        stack += children(child)
    return found


def alive(pid: int) -> bool:
    """Running (a zombie, dead but not yet reaped by its parent, is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process, from /proc (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start(command: list[str], log, **options) -> subprocess.Popen:
    """A child in a session of its own, its output appended to `log`."""
    return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, **options)


def stop(process: subprocess.Popen | None, seconds: float = 15) -> None:
    """SIGTERM, then SIGKILL after `seconds`; anything it started that outlives it is killed by its pid."""
    if process is None:
        return
    below = descendants(process.pid)
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(process.pid, signal.SIGCONT)  # a frozen process must be able to exit
        process.terminate()
        try:
            process.wait(seconds)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
    kill(below, wait=2)


def kill(pids: list[int], wait: float = 0) -> None:
    """SIGKILL each of `pids` still running, after up to `wait` seconds for them to end on their own."""
    deadline = time.monotonic() + wait
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid in pids:
        if alive(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

