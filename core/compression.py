"""Text responses (HTML, JSON, CSV, …) compressed when the client asks (`Accept-Encoding`).

Where, and how (BREACH): an attacker who can put chosen text into a compressed response that also holds a
secret, and can watch the response's size, may guess the secret a byte at a time. The middleware cannot know
what a body holds, so it compresses as Django's GZipMiddleware does: gzip with up to 100 random bytes in its
header ("Heal the Breach"), so that a size tells an attacker nothing (Django also masks the CSRF token anew in
every response). The page cache (`ranking.live`) stores only pages it has shown to hold nothing personal and no
token (anonymous readers, no cookie set, no CSRF token); those it compresses plainly, with brotli when the
client accepts it, else gzip, once when it stores them (`variants`), and serves the stored bytes (`encoded`),
so a cached page is never compressed again. Bodies that are not text (PDFs, images) are left alone: they are
compressed already. brotli is the `brotli` package that WeasyPrint's font tools bring; without it, gzip only.
"""
import gzip

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.middleware.gzip import GZipMiddleware
from django.utils.cache import patch_vary_headers

try:
    import brotli
except ImportError:  # pragma: no cover - brotli comes with WeasyPrint; gzip alone still serves every client
    brotli = None

BROTLI_QUALITY = 5
"""Brotli's middle setting: a 500 KB page in a few milliseconds, within a few per cent of the best ratio."""
GZIP_LEVEL = 6
MIN_LENGTH = 200
"""Smaller bodies gain nothing (a header costs as much as it saves)."""
TEXT_TYPES = ("text/", "application/json", "application/javascript", "application/xml", "image/svg+xml",
              "application/manifest+json", "application/problem+json")


def _compress(content: bytes, encoding: str) -> bytes:
    if encoding == "br":
        return bytes(brotli.compress(content, quality=BROTLI_QUALITY))
    return gzip.compress(content, compresslevel=GZIP_LEVEL, mtime=0)


def offered() -> tuple[str, ...]:
    """The encodings this server can produce, best first."""
    return ("br", "gzip") if brotli is not None else ("gzip",)


def accepted(request: HttpRequest, among: tuple[str, ...] | None = None) -> str | None:
    """The first of `among` (default: what this server offers, best first) that the request accepts
    (`Accept-Encoding`; q=0 refuses)."""
    wanted: dict[str, float] = {}
    for item in request.META.get("HTTP_ACCEPT_ENCODING", "").split(","):
        name, _, params = item.partition(";")
        params = params.replace(" ", "")
        try:
            quality = float(params[2:]) if params.startswith("q=") else 1.0
        except ValueError:
            quality = 0.0
        wanted[name.strip().lower()] = quality
    for encoding in among or offered():
        if wanted.get(encoding, wanted.get("*", 0.0)) > 0:
            return encoding
    return None


def compressible(content_type: str, length: int) -> bool:
    return length >= MIN_LENGTH and content_type.split(";")[0].strip().lower().startswith(TEXT_TYPES)


def variants(content: bytes) -> dict[str, bytes]:
    """A shareable body in every encoding this server offers (the page cache stores them with the body)."""
    return {encoding: _compress(content, encoding) for encoding in offered()}


def encoded(response: HttpResponse, encoding: str | None, body: bytes) -> None:
    """Give `response` the body `body` in `encoding` (None: as it is), with the headers that say so."""
    response.content = body
    patch_vary_headers(response, ("Accept-Encoding",))
    if encoding:
        response.headers["Content-Encoding"] = encoding
        weaken_etag(response)
    response.headers["Content-Length"] = str(len(body))


def weaken_etag(response: HttpResponseBase) -> None:
    """A compressed body is not byte-for-byte the entity its strong ETag names (RFC 9110 §8.8.1)."""
    etag = response.get("ETag")
    if etag and etag.startswith('"'):
        response.headers["ETag"] = "W/" + etag


class CompressionMiddleware(GZipMiddleware):
    """Django's GZipMiddleware (with its BREACH mitigation) for text bodies only; first in MIDDLEWARE, so it sees
    the body every other middleware produced. A response already encoded (a cached page) is left as it is."""

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if not isinstance(response, HttpResponse) or not compressible(response.get("Content-Type", ""),
                                                                        len(response.content)):
            return response
        if accepted(request, ("gzip",)) is None:  # Django's own check reads "gzip;q=0" as a yes
            patch_vary_headers(response, ("Accept-Encoding",))
            return response
        return super().process_response(request, response)
