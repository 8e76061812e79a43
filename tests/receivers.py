"""Receivers written byte by byte on 127.0.0.1, for the outbound guard's tests (webhooks, Web Push): the slow and
the huge answers it must cut off, and the listener that shows nothing connected."""
import socket
import threading
from dataclasses import dataclass, field


@dataclass
class RawReceiver:
    """One listener: `answer(connection, stop)` runs for each connection once its request is read. `connections`
    counts who connected; `stop` (set when the test ends) ends its answers."""

    url: str
    port: int
    connections: int = 0
    stop: threading.Event = field(default_factory=threading.Event)


def read_request(connection: socket.socket) -> bytes:
    """The request's head and its Content-Length body."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                   if line.lower().startswith(b"content-length:")), 0)
    while len(body) < length:
        chunk = connection.recv(65536)
        if not chunk:
            break
        body += chunk
    return data


class RawReceivers:
    """`with RawReceivers() as start:` gives `start(answer, read=True)`, which listens on 127.0.0.1 and returns its
    RawReceiver; `read=False` answers without reading an HTTP request first (a TLS handshake's receiver). All stop
    when the block ends."""

    def __init__(self):
        self.started: list[tuple[RawReceiver, socket.socket]] = []

    def __enter__(self):
        return self.start

    def __exit__(self, *exc):
        for state, listener in self.started:
            state.stop.set()
            listener.close()

    def start(self, answer, *, read: bool = True) -> RawReceiver:
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        listener.settimeout(0.1)
        port = listener.getsockname()[1]
        state = RawReceiver(f"http://127.0.0.1:{port}/hook", port)

        def serve_one(connection: socket.socket) -> None:
            with connection:
                try:
                    if read:
                        read_request(connection)
                    answer(connection, state.stop)
                except OSError:  # the site hung up on it: what the test wants
                    pass

        def serve() -> None:
            while not state.stop.is_set():
                try:
                    connection, _address = listener.accept()
                except TimeoutError:
                    continue
                except OSError:
                    return
                connection.settimeout(60)
                state.connections += 1
                threading.Thread(target=serve_one, args=(connection,), daemon=True).start()

        threading.Thread(target=serve, daemon=True).start()
        self.started.append((state, listener))
        return state
