"""Gunicorn's logs without the players' private tokens: the request line, path and referrer of `/me/<token>/` and the
like are written with "…" in place of the token in the access log (core.logging.redact), and every record of its
error log ("Error handling request /me/…/") too, in the master as in each worker, before the app has set up
logging (core.logging.install). gunicorn.conf.py names this class."""
from typing import Any

from gunicorn.glogging import Logger  # type: ignore[import-untyped]

from core.logging import install, redact


class RedactingLogger(Logger):
    def __init__(self, cfg: Any) -> None:
        install()
        super().__init__(cfg)

    def atoms(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> dict[str, Any]:
        return {key: redact(value) if isinstance(value, str) else value
                for key, value in super().atoms(resp, req, environ, request_time).items()}
