"""Gunicorn's access log without the players' private tokens: the request line, path and referrer of `/me/<token>/`
and the like are written with "…" in place of the token (core.logging.redact). gunicorn.conf.py names this class."""
from typing import Any

from gunicorn.glogging import Logger  # type: ignore[import-untyped]

from core.logging import redact


class RedactingLogger(Logger):
    def atoms(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> dict[str, Any]:
        return {key: redact(value) if isinstance(value, str) else value
                for key, value in super().atoms(resp, req, environ, request_time).items()}
