"""WeasyPrint fetches nothing but the shipped static files (issue 22, item 8: server-side request forgery).

With its default URL fetcher, any URL in a printed page (an image, a stylesheet, an attachment) was fetched by
the server: from the internal network (`http://127.0.0.1:…`, cloud metadata addresses) or from its disk
(`file:///etc/passwd`, embedded in the PDF as an attachment). Names are escaped in the templates, so this is
the second wall: whatever reaches a printed page, the fetcher serves only `static/` files and `data:` URIs.
"""
import http.server
import subprocess
import threading

import pytest

from core.pdf import A4, qr_data_uri, render_pdf_parts


@pytest.fixture
def listener():
    """An HTTP server on the loopback that counts the requests it gets."""
    hits = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # the standard library's name
            hits.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", hits
    server.shutdown()
    server.server_close()


def page(body: str) -> str:
    return f'<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body>{body}</body></html>'


def poppler(tool: str, pdf: bytes, folder) -> str:
    """What one of poppler's tools (pdfdetach -list, pdfimages -list, pdffonts) says of the PDF."""
    path = folder / "printed.pdf"
    path.write_bytes(pdf)
    args = [tool, "-list", str(path)] if tool in ("pdfdetach", "pdfimages") else [tool, str(path)]
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def images(pdf: bytes, folder) -> int:
    return len(poppler("pdfimages", pdf, folder).splitlines()) - 2  # two header lines


def test_no_url_of_the_network_is_fetched(listener):
    url, hits = listener
    render_pdf_parts([page(
        f'<img src="{url}/img.png"><link rel="stylesheet" href="{url}/style.css">'
        f'<p style="background: url({url}/bg.png)">x</p><a rel="attachment" href="{url}/secret.txt">a</a>'
        f'<object data="{url}/object.svg"></object><iframe src="{url}/frame.html"></iframe>'
        f'<img src="{url.replace("127.0.0.1", "localhost")}/img2.png">')], paper=A4)
    assert hits == []


def test_no_file_outside_the_static_files_is_read_into_the_pdf(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("the server's secret")
    image = tmp_path / "image.png"
    image.write_bytes(bytes.fromhex(
        "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
        "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"))
    pdf = render_pdf_parts([page(
        f'<a rel="attachment" href="file://{secret}">secret</a><a rel="attachment" href="file:///etc/passwd">p</a>'
        f'<img src="file://{image}"><img src="../../../../../../{image}">'
        '<link rel="attachment" href="file:///etc/hostname">')], paper=A4)
    assert poppler("pdfdetach", pdf, tmp_path).startswith("0 embedded files")
    assert images(pdf, tmp_path) == 0


def test_the_shipped_fonts_and_data_uris_still_load(tmp_path):
    pdf = render_pdf_parts([page(f'<p>Ann Lee · آن لي · אן לי</p><img src="{qr_data_uri("https://x.example/")}">')],
                           paper=A4)
    fonts = poppler("pdffonts", pdf, tmp_path)
    assert "Print-Sans" in fonts and "Print-Arabic" in fonts and "Print-Hebrew" in fonts  # print.css @font-face
    assert images(pdf, tmp_path) == 1  # the QR code
