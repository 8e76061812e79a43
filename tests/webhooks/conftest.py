"""Real HTTP receivers on 127.0.0.1 for the webhook tests: one records each request and answers the statuses it is
told to, in order (then 200); a raw one answers byte by byte as a test scripts it (slowly, or too much,
tests/receivers.py); and the retries the embedded worker would run later."""
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from championships.models import StaffRole
from championships.services import assign_staff
from core import background
from tests.factories import make_admin, make_tournament, make_user
from tests.receivers import RawReceivers


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    url: str
    requests: list[Received] = field(default_factory=list)
    statuses: list[int] = field(default_factory=list)


@pytest.fixture
def receiver():
    state = Receiver("")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # http.server's name
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            state.requests.append(Received(self.path, dict(self.headers.items()), body))
            status = state.statuses.pop(0) if state.statuses else 200
            answer = b'{"ok": true}' if status == 200 else b"x" * 5000  # a long answer is kept truncated
            self.send_response(status)
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}/hooks/catan?from=test"
    yield state
    server.shutdown()
    server.server_close()


@pytest.fixture
def later(monkeypatch):
    """The retries the embedded worker's timer would run, recorded as (seconds, task, args) instead of waited for."""
    queued = []
    monkeypatch.setattr(background, "run_later", lambda seconds, task, *args: queued.append((seconds, task, args)))
    return queued


@pytest.fixture
def local(settings):
    """Local receivers allowed, as in a developer's setup (never on a public site)."""
    settings.OUTBOUND_LOCAL_ALLOWED = True


@pytest.fixture
def cup():
    """A tournament, an organizer of its championship, and an organizer of another championship."""
    tournament = make_tournament(slug="hook-cup")
    organizer, other = make_user("hook-organizer"), make_user("hook-elsewhere")
    assign_staff(organizer, StaffRole.Role.ORGANIZER, championship=tournament.championship, user=make_admin())
    assign_staff(other, StaffRole.Role.ORGANIZER, championship=make_tournament().championship, user=make_admin())
    return tournament, organizer, other


@pytest.fixture
def raw_receiver():
    """A factory: `raw_receiver(answer)` starts a receiver written byte by byte on 127.0.0.1 (tests/receivers.py)."""
    with RawReceivers() as start:
        yield start
