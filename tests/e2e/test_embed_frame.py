"""The embed for a federation's website in Chromium (issue 38 item 4): a page of a listed website shows it in an
`<iframe>` and "where do I sit?" works inside the frame; a page of any other website is refused it, and no other
page of the site may be framed, even by a listed one. The two websites are two loopback servers of their own."""
import contextlib
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import expect

from championships.embedding import set_embed_origins
from tests.factories import make_entries, make_game, make_official, make_player, make_tournament, play

from .axe import axe_violations

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@contextlib.contextmanager
def website(frame_url: str) -> Iterator[str]:
    """A website on 127.0.0.1 whose one page frames `frame_url`; gives its origin."""
    body = (f'<!doctype html><html lang="en"><title>Federation</title><h1>Federation news</h1>'
            f'<iframe src="{frame_url}" title="Standings" width="800" height="900"></iframe></html>').encode()

    class Page(BaseHTTPRequestHandler):
        def do_GET(self):  # the name http.server calls
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture
def cup():
    tournament = make_tournament(slug="framed-cup", name="Framed Cup", status="running")
    entries = [tournament.entries.create(player=make_player(name)) for name in ("Ana Lima", "Omar Haddad")]
    entries += make_entries(tournament, 6)
    referee = make_official(tournament)
    game = make_game(tournament, [entries[:4], entries[4:]])
    play(game.tables.get(number=1), [10, 8, 6, 4], referee)
    return {"tournament": tournament, "organizer": make_official(tournament, "organizer")}


def framed(browser, parent: str):
    """The parent page open in a new context, with what the console said about frames."""
    context = browser.new_context(viewport={"width": 1000, "height": 1000})
    page = context.new_page()
    said: list[str] = []
    page.on("console", lambda message: said.append(message.text))
    page.goto(parent)
    return context, page, said


def test_a_listed_website_frames_the_embed_and_another_is_refused(browser, live_server, axe_script, cup):
    embed_url = f"{live_server.url}/t/framed-cup/embed/"
    with website(embed_url) as listed, website(embed_url) as unlisted, \
            website(f"{live_server.url}/t/framed-cup/standings/") as other_page:
        set_embed_origins(cup["tournament"].pk, f"{listed}\n{other_page}", user=cup["organizer"])
        context, page, said = framed(browser, listed)
        try:
            frame = page.frame_locator("iframe")
            expect(frame.get_by_role("heading", name="Framed Cup")).to_be_visible()
            expect(frame.get_by_role("heading", name="Standings")).to_be_visible()
            expect(frame.get_by_role("heading", name="Table 2")).to_be_visible()
            frame.get_by_label("Where do I sit? Type part of your name").fill("omar")
            frame.get_by_role("button", name="Find my table").click()
            expect(frame.locator(".where-card")).to_contain_text("Omar Haddad")
            expect(frame.locator(".where-card")).to_contain_text("Table 1")
            assert not [text for text in said if "Content Security Policy" in text], said
        finally:
            context.close()
        for parent in (unlisted, other_page):
            context, page, said = framed(browser, parent)
            try:
                page.wait_for_timeout(1500)
                assert page.frame_locator("iframe").get_by_role("heading", name="Framed Cup").count() == 0
                assert any("frame-ancestors" in text or "X-Frame-Options" in text for text in said), said
            finally:
                context.close()


def test_the_embed_passes_axe_on_a_narrow_screen(browser, live_server, axe_script, cup):
    # bypass_csp: axe-core is injected as an inline script, which the site's policy rightly refuses.
    context = browser.new_context(viewport={"width": 360, "height": 640}, base_url=live_server.url, bypass_csp=True)
    page = context.new_page()
    try:
        for language in ("", "/ar"):
            assert page.goto(f"{language}/t/framed-cup/embed/?q=a").status == 200
            assert axe_violations(page, axe_script) == []
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    finally:
        context.close()
