"""The public page cache: keyed by the query parameters a page uses (issue 22 item 7), stored and served
compressed (issue 23 item 3), never mixing staff and anonymous readers."""
import gzip
import random
import string

import brotli
import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core import compression
from ranking import live

pytestmark = pytest.mark.django_db


class CountingCache:
    """The cache, with every key a page is stored under counted (and every key of a page's part)."""

    def __init__(self):
        self.pages: set[str] = set()
        self.fragments: set[str] = set()

    def __getattr__(self, name):
        return getattr(cache, name)

    def set(self, key, *args, **kwargs):
        if key.startswith("page:"):
            self.pages.add(key)
        if key.startswith("fragment:"):
            self.fragments.add(key)
        return cache.set(key, *args, **kwargs)


def random_text(rng: random.Random) -> str:
    return "".join(rng.choices(string.ascii_letters + string.digits, k=12))


@pytest.mark.parametrize("path", ["/t/cup/standings/", "/t/cup/", "/t/cup/games/1/", "/t/cup/screen/",
                                  "/t/cup/where/?q=player"])
def test_a_hundred_random_query_strings_make_one_cache_entry(client, cup, path, monkeypatch):
    counting = CountingCache()
    monkeypatch.setattr(live, "cache", counting)
    rng = random.Random(23)
    first = client.get(path)
    assert first.status_code == 200
    joiner = "&" if "?" in path else "?"
    for _ in range(100):
        with CaptureQueriesContext(connection) as queries:
            again = client.get(f"{path}{joiner}{random_text(rng)}={random_text(rng)}")
        assert again.content == first.content and len(queries) <= 1  # from the cache, not rendered
    assert len(counting.pages) == 1


def test_the_parameters_a_page_uses_make_their_own_entries_read_as_the_page_reads_them(client, cup, monkeypatch):
    counting = CountingCache()
    monkeypatch.setattr(live, "cache", counting)
    for path in ("/t/cup/standings/", "/t/cup/standings/?page=1", "/t/cup/standings/?page=abc",
                 "/t/cup/standings/?page=0&x=1"):
        assert client.get(path).status_code == 200
    assert len(counting.pages) == 1  # all of them are page 1
    client.get("/t/cup/where/?q=player")
    client.get("/t/cup/where/?q=+player++")  # the search strips the query
    client.get("/t/cup/where/?q=nobody")
    assert len(counting.pages) == 3


def test_a_cached_page_is_served_in_the_encoding_asked_for_and_never_compressed_again(client, cup, monkeypatch):
    plain = client.get("/t/cup/standings/")
    assert "Content-Encoding" not in plain.headers and "Accept-Encoding" in plain.headers["Vary"]
    compressions = []
    real = compression._compress
    monkeypatch.setattr(compression, "_compress", lambda body, encoding: compressions.append(encoding)
                        or real(body, encoding))
    for _ in range(3):
        packed = client.get("/t/cup/standings/", HTTP_ACCEPT_ENCODING="gzip, deflate, br")
        assert packed.headers["Content-Encoding"] == "br"
        assert brotli.decompress(packed.content) == plain.content
        assert packed.headers["Content-Length"] == str(len(packed.content))
        zipped = client.get("/t/cup/standings/", HTTP_ACCEPT_ENCODING="gzip")
        assert zipped.headers["Content-Encoding"] == "gzip" and gzip.decompress(zipped.content) == plain.content
    assert compressions == []  # stored compressed with the page
    refused = client.get("/t/cup/standings/", HTTP_ACCEPT_ENCODING="br;q=0, gzip;q=0")
    assert "Content-Encoding" not in refused.headers and refused.content == plain.content


def test_a_compressed_page_has_a_weak_etag_that_still_answers_304(client, cup):
    packed = client.get("/t/cup/standings/", HTTP_ACCEPT_ENCODING="br")
    assert packed.headers["ETag"].startswith('W/"')
    again = client.get("/t/cup/standings/", HTTP_ACCEPT_ENCODING="br", HTTP_IF_NONE_MATCH=packed.headers["ETag"])
    assert again.status_code == 304
