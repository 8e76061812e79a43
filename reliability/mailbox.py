"""The stack's mail server: aiosmtpd on loopback, writing every message it receives, exactly as received, as an
`.eml` file into a folder (`make stack` prints it as `stack mail:`), so a test opens the links an email holds as
the player would.

`python -m reliability.mailbox FOLDER PORT` runs it until SIGTERM (tests/e2e/site.py reads the folder back).
"""
import itertools
import signal
import sys
import threading
import time
from pathlib import Path

from aiosmtpd.controller import Controller

HOST = "127.0.0.1"


class Folder:
    """aiosmtpd's handler: each message's bytes written whole (to a temporary name, then renamed)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.numbers = itertools.count(1)

    async def handle_DATA(self, server, session, envelope) -> str:  # aiosmtpd's hook name
        name = f"{time.strftime('%Y%m%d-%H%M%S')}-{next(self.numbers):05d}.eml"
        partial = self.folder / f".{name}.partial"
        partial.write_bytes(envelope.original_content or envelope.content)
        partial.rename(self.folder / name)
        return "250 Message accepted for delivery"


def main() -> None:
    folder, port = Path(sys.argv[1]), int(sys.argv[2])
    folder.mkdir(parents=True, exist_ok=True)
    controller = Controller(Folder(folder), hostname=HOST, port=port)
    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())
    signal.signal(signal.SIGINT, lambda *_: stopped.set())
    controller.start()
    print(f"mailbox: SMTP on {HOST}:{port}, messages into {folder}", flush=True)
    stopped.wait()
    controller.stop()


if __name__ == "__main__":
    main()
