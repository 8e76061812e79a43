"""Where the browser tests run: Django's live server (the default), or the deployed stack (`make test-stack`:
`STACK_ARGS` set, reliability/journeys.py), through nginx at `https://catan.test:<port>` with real mail.

A journey asks for `site` instead of `live_server`: its `url`, the Chromium flags it needs, its `mail` (Django's
outbox here, the stack's mail server's .eml files there) and how a tablet goes offline (`offline_posts`).
"""
import email
import email.policy
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from reliability.processes import alive, descendants

STACK_ARGS = os.environ.get("STACK_ARGS")
"""Set by `make test-stack`: the arguments `python -m reliability.run_stack` is started with."""
READY_SECONDS = 600
"""The most a stack may take to migrate its database and start (a loaded 2-core machine needs minutes)."""
MAIL_SECONDS = 30
"""The most the stack's worker may take to send an email the test caused."""


@dataclass
class Mail:
    """One email as a test reads it: the recipients, subject, text body and attachments (name, text)."""

    to: list[str]
    subject: str
    body: str
    attachments: list[tuple[str, str]] = field(default_factory=list)


class Outbox:
    """Django's outbox (the live server's process sends there)."""

    def messages(self) -> list[Mail]:
        from django.core import mail

        return [Mail(list(m.to), m.subject, m.body, [
            (a[0], a[1]) if isinstance(a, tuple) else (a.get_filename(), a.get_payload(decode=True).decode())
            for a in m.attachments]) for m in mail.outbox]

    def wait(self, to: str, where=lambda mail: True, seconds: float = 0) -> Mail:
        """The newest email to `to` that `where` accepts, once there is one (at most `seconds` later)."""
        deadline = time.monotonic() + seconds
        while True:
            found = [m for m in self.messages() if m.to == [to] and where(m)]
            if found or time.monotonic() > deadline:
                break
            time.sleep(0.25)
        subjects = [m.subject for m in self.messages() if m.to == [to]]
        assert found, f"no such email to {to} within {seconds:.0f} s; the emails to them: {subjects}"
        return found[-1]


class Folder(Outbox):
    """The stack's mail server's folder: each message exactly as it was sent over SMTP (reliability/mailbox.py)."""

    def __init__(self, folder: Path):
        self.folder = folder

    def messages(self) -> list[Mail]:
        found = []
        for path in sorted(self.folder.glob("*.eml")):
            message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            body = message.get_body(("plain",))
            found.append(Mail([a.strip() for a in str(message["To"]).split(",")], str(message["Subject"]),
                              body.get_content() if body is not None else "",
                              [(part.get_filename() or "", str(part.get_content()))
                               for part in message.iter_attachments()]))
        return found

    def wait(self, to: str, where=lambda mail: True, seconds: float = MAIL_SECONDS) -> Mail:
        """As the outbox's, waiting for the stack's worker, which sends a moment after the change committed."""
        return super().wait(to, where, seconds)


@dataclass
class Site:
    url: str
    mail: Outbox
    stack: dict | None = None
    """The stack's env.json (reliability/stack.py `write_env`), when the tests run against it."""


class RunningStack:
    """`python -m reliability.run_stack` started for the whole test session, and every process it started."""

    def __init__(self, args: str):
        self.log = Path(os.environ["STACK_ENV_FILE"]).parent.with_suffix(".log")
        self.process = subprocess.Popen([sys.executable, "-m", "reliability.run_stack", *shlex.split(args)],
                                        stdout=self.log.open("wb"), stderr=subprocess.STDOUT,
                                        cwd=Path(__file__).resolve().parents[2])
        self.started: set[int] = set()

    def wait_ready(self) -> dict:
        deadline = time.monotonic() + READY_SECONDS
        while time.monotonic() < deadline:
            text = self.log.read_text(errors="replace")
            self.started |= set(descendants(self.process.pid))
            if re.search(r"^stack ready: https://\S+/$", text, re.M) and "stack env: " in text:
                self.started |= set(descendants(self.process.pid))
                return json.loads(Path(os.environ["STACK_ENV_FILE"]).read_text())
            if self.process.poll() is not None:
                break
            time.sleep(1)
        self.stop()
        raise RuntimeError(f"the stack did not start:\n{self.log.read_text(errors='replace')[-3000:]}")

    def stop(self) -> list[int]:
        """SIGTERM, as Ctrl-C or a supervisor would; the processes it started that are still running after it."""
        self.started |= set(descendants(self.process.pid))
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(120)
        return sorted(pid for pid in self.started if alive(pid))
