"""Printable PDFs: a template rendered to HTML, laid out by WeasyPrint with the project's print stylesheet.

The stylesheet loads the Noto fonts shipped in `static/fonts/` for the interface's languages and names the
Debian Noto fonts (fontconfig) for names in other scripts, sets the paper size and mirrors the page for
right-to-left languages. Any app may render a document through `render_pdf`.

WeasyPrint fetches only what the site ships: `data:` URIs (the QR codes) and files under `static/` (the
stylesheet's fonts). Any other URL that reached a page (an image, a stylesheet, an attachment) is not
fetched, so no printed page can make the server read its internal network or its disk into a PDF.

The stylesheet and the fonts it loads are parsed once per thread, not once per PDF: that parse was two
thirds of a one-page PDF's time. What a long document costs is its boxes and lines; `core/print_columns.py`
keeps long lists to one line of text per row.
"""
import atexit
import gc
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import url2pathname

import segno
from django.conf import settings
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils.translation import get_language, get_language_bidi

from core import qr

A4 = "a4"
LETTER = "letter"
PAPERS = {A4: "A4", LETTER: "letter"}
PAGE_MM = {A4: (210.0, 297.0), LETTER: (215.9, 279.4)}
"""Width and height of each paper, portrait."""
MARGINS_MM = (14.0, 14.0, 16.0, 14.0)
"""Top, right, bottom, left: the footer (the event and the page number) stands in the bottom margin."""
LETTER_COUNTRIES = frozenset({"US", "CA", "MX", "PH", "CL", "CO", "VE", "CR", "GT", "PA", "DO", "PR", "SV", "NI"})
"""Where US Letter is the usual paper; everywhere else prints on A4."""

SHIPPED = (Path(settings.BASE_DIR) / "static").resolve()
"""The only folder a PDF may read files from."""
STYLESHEET = SHIPPED / "print" / "print.css"


def paper_for(requested: str | None, country_code: str | None) -> str:
    """The `paper` parameter if it names a known size, else the usual paper of the tournament's country."""
    if requested in PAPERS:
        return requested
    return LETTER if (country_code or "").upper() in LETTER_COUNTRIES else A4


def text_area_mm(paper: str, landscape: bool = False) -> tuple[float, float]:
    """The width and height inside the margins (what a page of a long list may fill, `core.print_columns`)."""
    width, height = PAGE_MM[paper][::-1] if landscape else PAGE_MM[paper]
    top, right, bottom, left = MARGINS_MM
    return width - left - right, height - top - bottom


def qr_data_uri(payload: str) -> str:
    """A QR code (segno's, error correction M) as a greyscale PNG of one pixel per module (`core.qr`); the print
    stylesheet scales it up without smoothing (`image-rendering: pixelated`), so it prints as sharp as a vector
    drawing, and a sheet lays out in half the time an SVG takes (50 record sheets: 1.5 s instead of 3 s on a busy
    2-core machine)."""
    return qr.grey_png_data_uri(segno.make(payload, error="m"))


def html_for(template: str, context: dict[str, Any]) -> str:
    """The print template in the active language, with its `<html lang dir>`."""
    return render_to_string(template, {**context, "lang": get_language() or "en", "rtl": get_language_bidi()})


def shipped_file(url: str) -> Path | None:
    """The file a `file:` URL names, if it is one of the shipped static files."""
    parts = urlsplit(url)
    if parts.scheme.lower() != "file" or parts.netloc not in ("", "localhost"):
        return None
    path = Path(url2pathname(parts.path)).resolve()
    return path if path.is_relative_to(SHIPPED) and path.is_file() else None


def _fetcher() -> Any:
    """A WeasyPrint URL fetcher (one per document set: it keeps per-request state) for `data:` and shipped files."""
    from weasyprint.urls import URLFetcher

    class ShippedFilesOnly(URLFetcher):  # type: ignore[misc]  # WeasyPrint ships no types
        def fetch(self, url: str, headers: Any = None) -> Any:
            if url[:5].lower() == "data:":
                return super().fetch(url, headers)
            path = shipped_file(url)
            if path is None:
                raise ValueError(f"not fetched, only the site's own static files are: {url[:100]}")
            return super().fetch(path.as_uri(), headers)

    return ShippedFilesOnly(allowed_protocols=("data", "file"), allow_redirects=False)


_parsed = threading.local()


@atexit.register
def _forget_stylesheets() -> None:
    """This thread's fonts freed before the interpreter shuts down, while WeasyPrint can still free them."""
    vars(_parsed).clear()


def _stylesheets(paper: str, landscape: bool) -> tuple[Any, list[Any]]:
    """The fonts and stylesheets of a document on `paper`: the print stylesheet, with the fonts its @font-face
    rules load, parsed once per thread (again when the file changes), and the page size. A thread of its own:
    Pango's font maps are not shared between threads."""
    from weasyprint import CSS  # imported when printing: loading Pango costs a few hundred ms
    from weasyprint.text.fonts import FontConfiguration

    version = STYLESHEET.stat().st_mtime_ns
    parsed = getattr(_parsed, "sheets", None)
    if parsed is None or parsed[0] != version:
        fonts = FontConfiguration()
        sizes: dict[tuple[str, bool], Any] = {}
        parsed = _parsed.sheets = (version, fonts, CSS(filename=str(STYLESHEET), font_config=fonts,
                                                       url_fetcher=_fetcher()), sizes)
    _version, fonts, css, sizes = parsed
    if (paper, landscape) not in sizes:
        margins = " ".join(f"{margin:g}mm" for margin in MARGINS_MM)
        sizes[paper, landscape] = CSS(string=f"@page {{ size: {PAPERS[paper]}{' landscape' if landscape else ''}; "
                                             f"margin: {margins}; }}")
    return fonts, [css, sizes[paper, landscape]]


class _CollectorPause:
    """The garbage collector paused while documents are laid out: WeasyPrint makes millions of short-lived objects
    and hardly a cycle, and the collector's passes over them cost an eighth of the time (a few MB more at the
    peak). Paused once for however many threads are laying out; restored when the last one is done."""

    def __init__(self) -> None:
        self.lock, self.depth, self.was_enabled = threading.Lock(), 0, True

    @contextmanager
    def __call__(self) -> Iterator[None]:
        with self.lock:
            if not self.depth:
                self.was_enabled = gc.isenabled()
                gc.disable()
            self.depth += 1
        try:
            yield
        finally:
            with self.lock:
                self.depth -= 1
                if not self.depth and self.was_enabled:
                    gc.enable()


_collector_paused = _CollectorPause()


def _documents(parts: Iterable[str], paper: str, landscape: bool) -> Iterator[Any]:
    from weasyprint import HTML

    fonts, stylesheets = _stylesheets(paper, landscape)
    fetcher, base = _fetcher(), str(STYLESHEET.parent)
    for html in parts:
        yield HTML(string=html, base_url=base, url_fetcher=fetcher).render(stylesheets=stylesheets, font_config=fonts)


def render_pdf(template: str, context: dict[str, Any], *, paper: str, landscape: bool = False) -> bytes:
    """One document: the template rendered and laid out on `paper` (a key of PAPERS)."""
    html = html_for(template, context)
    with _collector_paused():
        data: bytes = next(_documents([html], paper, landscape)).write_pdf()
    return data


def render_pdf_parts(parts: Iterable[str], *, paper: str, progress: Callable[[int], None] | None = None) -> bytes:
    """Several HTML documents laid out one after the other into one PDF; `progress(n)` after each part."""
    pages: list[Any] = []
    first = None
    with _collector_paused():
        for n, document in enumerate(_documents(parts, paper, False), start=1):
            first = first or document
            pages.extend(document.pages)
            if progress is not None:
                progress(n)
        if first is None:
            raise ValueError("No part to lay out.")
        data: bytes = first.copy(pages).write_pdf()
    return data


def pdf_response(data: bytes, filename: str) -> HttpResponse:
    """Shown in the browser's viewer (inline) with a file name for saving."""
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
