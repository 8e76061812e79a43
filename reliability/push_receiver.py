"""The stack's Web Push receiver: what a browser's push service is to the site, on loopback. It answers every POST
with 201 Created, as push services do, and writes what it received (path, headers, the encrypted body in base64)
as one JSON file per message into a folder.

`python -m reliability.push_receiver FOLDER PORT CERTIFICATE KEY` serves HTTPS until SIGTERM; `received(FOLDER)`
reads the folder back.
"""
import base64
import itertools
import json
import signal
import ssl
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HOST = "127.0.0.1"
MAX_BYTES = 8192
"""A push message is at most 4 KB; anything longer is refused (413) and not written."""


def handler(folder: Path):
    numbers = itertools.count(1)

    class Receiver(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # http.server's hook name
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BYTES:
                self.send_response(413)
                self.end_headers()
                return
            body = self.rfile.read(length)
            record = {"path": self.path, "headers": dict(self.headers.items()),
                      "body": base64.b64encode(body).decode()}
            (folder / f"{next(numbers):05d}.json").write_text(json.dumps(record))
            self.send_response(201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format, *args) -> None:  # http.server's signature
            pass

    return Receiver


def received(folder: Path) -> list[dict]:
    return [json.loads(path.read_text()) for path in sorted(Path(folder).glob("*.json"))]


def main() -> None:
    folder, port, certificate, key = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
    folder.mkdir(parents=True, exist_ok=True)
    server = ThreadingHTTPServer((HOST, port), handler(folder))
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(certificate, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    print(f"push receiver: https://{HOST}:{port}/, messages into {folder}", flush=True)
    server.serve_forever()
    server.server_close()


if __name__ == "__main__":
    main()
