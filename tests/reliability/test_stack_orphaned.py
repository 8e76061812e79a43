"""A stack whose starter is gone stops by itself (reliability/run_stack.py `orphaned`): a test run killed by SIGKILL
cannot stop the stack it started, and the stack's processes would otherwise run on."""
import subprocess
import sys
import time
from pathlib import Path

ORPHAN = """
import os, sys, threading
from reliability.run_stack import orphaned
stop = threading.Event()
threading.Thread(target=orphaned, args=(os.getppid(), stop), daemon=True).start()
open(sys.argv[1] + ".started", "w").close()
stop.wait(30)
open(sys.argv[1], "w").write("stopped" if stop.is_set() else "still running")
"""

STARTER = """
import subprocess, sys, time
subprocess.Popen([sys.executable, "-c", sys.argv[1], sys.argv[2]])
while not __import__("os").path.exists(sys.argv[2] + ".started"):
    time.sleep(0.05)
"""


def test_the_stack_stops_once_the_process_that_started_it_is_gone(tmp_path):
    said = tmp_path / "said"
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, "-c", STARTER, ORPHAN, str(said)], cwd=root, check=True, timeout=30)
    deadline = time.monotonic() + 20  # the starter exited: the stack notices within a second or two
    while not said.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert said.read_text() == "stopped"
