"""The clients: spectators reading the public pages, referees playing tables as the tablet does.

One asyncio loop for everyone (the server, not the clients, must be what is measured on two cores), and one
connection pool per client (`Clients`), each connecting from an address of its own in 127.0.0.0/8: requests go
through the stack's nginx over TLS, which appends each client's address to X-Forwarded-For as it would on the
internet (the replicas run with `PROXY_COUNT=1`), so limits per client address count each one apart. The session
and CSRF cookies are `Secure`; they are kept by hand per referee.

No request ever raises out of here: a timeout, a refused or reset connection or an unexpected answer is
counted as an error of its kind of request (`Stats`), and the run goes on to its report.
"""
import asyncio
import contextlib
import email.utils
import random
import re
import time
from collections import defaultdict
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import httpx

from .connections import Clients

CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
RETRY_PAUSE = 0.5
"""Seconds before a referee taps again after an error (and between sign-in attempts)."""
BUSY_TRIES = 4
"""A PDF or XLSX refused with 429 (too many renders at once) is asked for again after its Retry-After, as a reader
reloads it when the page says "try again in a few seconds": this many requests in all, then an error."""
BUSY_WAIT_MAX = 30.0
"""The longest Retry-After a reader waits; a missing or unreadable one counts as BUSY_WAIT_DEFAULT."""
BUSY_WAIT_DEFAULT = 2.0


PROXY_ANSWERED = frozenset({"HIT", "STALE", "UPDATING", "REVALIDATED"})
"""nginx's `$upstream_cache_status` values of an answer given from its cache."""


def client_address(group: int, index: int) -> str:
    """A distinct loopback address per client (group 1: readers, 2: referees, 3: the harness's own probes)."""
    return f"127.{group}.{index // 250}.{index % 250 + 1}"


def failure(error: BaseException) -> str:
    """How a request failed without an answer, as counted: ReadTimeout, ConnectTimeout, ConnectError, …"""
    return type(error).__name__


def retry_after(response: httpx.Response) -> float:
    """The seconds a 429 asks to wait (a number or an HTTP date), within 0..BUSY_WAIT_MAX."""
    value = response.headers.get("retry-after", "").strip()
    if value.isdigit():
        return min(float(value), BUSY_WAIT_MAX)
    with contextlib.suppress(TypeError, ValueError):
        return min(max(email.utils.parsedate_to_datetime(value).timestamp() - time.time(), 0.0), BUSY_WAIT_MAX)
    return BUSY_WAIT_DEFAULT


def is_pdf(path: str) -> bool:
    return urlsplit(path).path.endswith(".pdf")


def is_rendered(path: str) -> bool:
    """A PDF or an XLSX: both are made in the same few render slots, so either may be refused with 429 while they
    are busy, and is asked for again after its Retry-After."""
    return urlsplit(path).path.endswith((".pdf", ".xlsx"))


NaN = float("nan")
"""A figure with nothing measured (printed as "—")."""


def percentile(values: list[float], share: float) -> float:
    if not values:
        return NaN
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


@dataclass
class Stats:
    """Latencies, failures and refusals (429, asked again later) per page name, each stamped with its time."""

    latencies: dict[str, list[tuple[float, float]]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, list[tuple[float, str]]] = field(default_factory=lambda: defaultdict(list))
    busy: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    from_proxy: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def ok(self, page: str, started: float, seconds: float) -> None:
        self.latencies[page].append((started, seconds))

    def error(self, page: str, started: float, what: str) -> None:
        self.errors[page].append((started, what))

    def refused(self, page: str, started: float) -> None:
        """An expected 429 (a PDF while the renders are busy): not an error, the reader asks again after a while."""
        self.busy[page].append(started)

    def proxy_answered(self, page: str, response: httpx.Response) -> None:
        """Count an answer nginx gave from its cache (its `X-Cache`), without asking a replica."""
        if response.headers.get("x-cache") in PROXY_ANSWERED:
            self.from_proxy[page] += 1

    @property
    def names(self) -> list[str]:
        return sorted(set(self.latencies) | set(self.errors) | set(self.busy))

    def error_count(self) -> int:
        return sum(len(errors) for errors in self.errors.values())

    def errors_between(self, start: float, end: float) -> int:
        return sum(start <= t <= end for errors in self.errors.values() for t, _ in errors)

    def error_kinds(self, start: float = 0.0, end: float = float("inf")) -> dict[str, int]:
        kinds: dict[str, int] = defaultdict(int)
        for page, errors in self.errors.items():
            for t, what in errors:
                if start <= t <= end:
                    kinds[f"{page}: {what}"] += 1
        return dict(kinds)

    def table(self, seconds: float, pages: list[str] | None = None) -> list[str]:
        """One line per page: requests, errors, 429s, throughput and latency percentiles (ms) of the answers."""
        pages = self.names if pages is None else pages
        seconds = max(seconds, 1e-9)
        lines = [f"{'page':<44} {'requests':>8} {'errors':>6} {'429':>5} {'req/s':>6} {'p50 ms':>7} {'p95 ms':>7} "
                 f"{'p99 ms':>7} {'max ms':>7} {'nginx':>6}"]
        for page in pages:
            times = [s * 1000 for _, s in self.latencies.get(page, [])]
            errors, busy = len(self.errors.get(page, [])), len(self.busy.get(page, []))
            requests = len(times) + errors + busy
            figures = [percentile(times, .5), percentile(times, .95), percentile(times, .99), max(times, default=NaN)]
            proxy = f"{self.from_proxy.get(page, 0) / len(times):.0%}" if times else "—"
            lines.append(f"{page:<44} {requests:>8} {errors:>6} {busy:>5} {requests / seconds:>6.1f} "
                         + " ".join(f"{'—' if f != f else f'{f:.0f}':>7}" for f in figures) + f" {proxy:>6}")
        return lines

    def summary(self, pages: list[str]) -> dict:
        times = [s * 1000 for page in pages for _, s in self.latencies.get(page, [])]
        errors = sum(len(self.errors.get(page, [])) for page in pages)
        busy = sum(len(self.busy.get(page, [])) for page in pages)
        return {"requests": len(times) + errors + busy, "errors": errors, "busy": busy, "p50": percentile(times, .5),
                "p95": percentile(times, .95), "p99": percentile(times, .99)}


# --- spectators ---------------------------------------------------------------------------------

LIVE = re.compile(r'<div id="live"[^>]*data-live-url="([^"]+)"[^>]*data-live-version="([^"]*)"'
                  r'(?:[^>]*data-poll-seconds="(\d+)")?([^>]*data-live-reload)?')
LEGACY_POLL = re.compile(r'hx-get="([^"]+)" hx-trigger="every (\d+)s"')


def public_pages(paths: dict[str, str]) -> list[tuple[str, str, int]]:
    """(name, path, weight): the live standings most, as a tournament day's audience does."""
    weights = {"public-standings": 8, "public-standings-csv": 1, "api-standings": 2, "home": 2,
               "api-tournaments": 1, "api-seating": 1, "public-version": 0}
    pages = [(name, path, weights.get(name, 3)) for name, path in paths.items()]
    pages.append(("public-standings (ar)", f"/ar{paths['public-standings']}", 2))
    return [page for page in pages if page[2]]


class Browser:
    """One reader's browser tab: a cache of ETags (pages are `no-cache`, so it revalidates), as a browser does;
    a PDF refused with 429 is asked for again after its Retry-After (the reader reloading it)."""

    def __init__(self, clients: Clients, stats: Stats, address: str | None = None,
                 stop: asyncio.Event | None = None):
        self.client, self.stats, self.stop = clients.at(address), stats, stop or asyncio.Event()
        self.etags: dict[tuple[str, bool], str] = {}
        self.bodies: dict[tuple[str, bool], str] = {}

    async def get(self, name: str, path: str, htmx: bool = False) -> str | None:
        """The page's text ("" for a PDF), or None when it failed (counted)."""
        first = time.monotonic()
        for attempt in range(1, BUSY_TRIES + 1):
            headers = {"HX-Request": "true"} if htmx else {}
            if etag := self.etags.get((path, htmx)):
                headers["If-None-Match"] = etag
            started = time.monotonic()
            try:
                response = await self.client.get(path, headers=headers)
            except Exception as error:  # a timeout, a refused connection, anything: counted
                self.stats.error(name, started, failure(error))
                return None
            if response.status_code == 429 and is_rendered(path):
                self.stats.refused(name, started)
                if attempt == BUSY_TRIES:
                    self.stats.error(name, started, f"HTTP 429 {BUSY_TRIES} times in a row")
                    return None
                if not await pause(self.stop, retry_after(response)):
                    return None
                continue
            self.stats.proxy_answered(name, response)
            if response.status_code == 304:
                self.stats.ok(name, started, time.monotonic() - started)
                return self.bodies.get((path, htmx))
            if response.status_code != 200:
                self.stats.error(name, started, f"HTTP {response.status_code}")
                return None
            self.stats.ok(name, started, time.monotonic() - started)
            if attempt > 1:  # what the reader waited for the PDF in all, 429s and pauses included
                self.stats.ok(f"{name} (after 429: until served)", first, time.monotonic() - first)
            text = "" if is_rendered(path) else response.text
            if etag := response.headers.get("etag"):
                self.etags[(path, htmx)] = etag
                self.bodies[(path, htmx)] = text
            return text
        return None


async def pause(stop: asyncio.Event, seconds: float) -> bool:
    """Sleep, waking early when the run stops; True while it goes on."""
    try:
        await asyncio.wait_for(stop.wait(), max(seconds, 0))
    except TimeoutError:
        return True
    return False


async def spectator(client: Clients, pages, stats: Stats, stop: asyncio.Event, dwell: float,
                    rng: random.Random, address: str | None = None, seen=None) -> None:
    """A reader: opens a page and stays on it a while (exponential, mean `dwell` s) doing what its script does.

    A live page (`<div id="live" data-live-url=…>`, static/js/live.js) polls its version every few seconds
    and, when it changed, refreshes its live region through htmx (the projector reloads the page). A page
    with the older `hx-trigger="every Ns"` polls that. JSON and CSV readers re-read every 10 s or so; a PDF
    is downloaded once per visit (a PDF viewer does not reload it). `seen(visit, when, version)` is told each
    version a live page holds, when it learned it (for the live-update delay, `live_update.py`).

    A fault of the harness itself is counted as an error of "reader (harness)" and ends only this reader.
    """
    try:
        await _read(Browser(client, stats, address, stop), pages, stop, dwell, rng, seen)
    except Exception as error:  # counted, reported; the other readers go on
        stats.error("reader (harness)", time.monotonic(), f"{type(error).__name__}: {error}")


async def _read(browser: Browser, pages, stop: asyncio.Event, dwell: float, rng: random.Random, seen) -> None:
    names = [(name, path) for name, path, _w in pages]
    weights = [w for *_x, w in pages]
    if not await pause(stop, rng.uniform(0, 4)):
        return
    while not stop.is_set():
        name, path = rng.choices(names, weights)[0]
        leave = time.monotonic() + rng.expovariate(1 / dwell)
        visit = object()
        body = await browser.get(name, path)
        live = LIVE.search(body or "")
        legacy = None if live else LEGACY_POLL.search(body or "")
        if live and seen:
            seen(visit, time.monotonic(), live.group(2))
        wait = None
        while time.monotonic() < leave:
            if live:
                url, version, every, reload = live.groups()
                if not await pause(stop, wait or int(every or 4)):
                    return
                answer = await browser.get("public-version (live poll)", url)
                wait = soon_in(answer)  # as static/js/live.js: again soon while a newer version is coming
                current = version_in(answer)
                if current and seen:
                    seen(visit, time.monotonic(), current)
                if current and current != version:
                    await browser.get(name if reload else f"{name} (live refresh)", path, htmx=not reload)
                    live = LIVE.search(f'<div id="live" data-live-url="{url}" data-live-version="{current}" '
                                       f'data-poll-seconds="{every or 4}"{reload or ""}>')
            elif legacy:
                if not await pause(stop, int(legacy.group(2))):
                    return
                await browser.get(f"{name} (htmx poll)", legacy.group(1), htmx=True)
            elif is_pdf(path):
                if not await pause(stop, leave - time.monotonic()):
                    return
            else:
                if not await pause(stop, rng.uniform(5, 15)):
                    return
                await browser.get(name, path)


def soon_in(answer: str | None) -> int | None:
    """The seconds until the next poll when a version endpoint's answer says a newer version is coming."""
    if not re.search(r'"coming":\s*true', answer or ""):
        return None
    match = re.search(r'"soon":\s*(\d+)', answer or "")
    return int(match.group(1)) if match else 1


def version_in(answer: str | None) -> str | None:
    """The version a version endpoint's JSON answer names."""
    match = re.search(r'"version":\s*"([^"]*)"', answer or "")
    return match.group(1) if match else None


# --- referees -----------------------------------------------------------------------------------

class RequestFailed(Exception):
    pass


class Tablet:
    """A referee's tablet: logged in, its own cookies, CSRF token from each page; forms POSTed without JS."""

    def __init__(self, clients: Clients, site_url: str, username: str, password: str, stats: Stats,
                 retry_until: float | None = None, address: str | None = None, role: str = "referee"):
        self.client, self.site_url, self.stats, self.role = clients.at(address), site_url, stats, role
        self.username, self.password = username, password
        self.cookies: dict[str, str] = {}
        self.csrf = ""
        self.retry_until = retry_until
        """A monotonic deadline: until then a failed request is tapped again, as a referee would after an error."""
        self.answered_at = 0.0
        """When the last tap's own request (a form's POST, not the page it redirects to) was answered."""

    def _headers(self, post: bool) -> dict:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if post:  # the browser's, checked by Django's CSRF protection over HTTPS
            headers.update(Origin=self.site_url, Referer=f"{self.site_url}/")
        return headers

    def _keep(self, response: httpx.Response) -> None:
        for header in response.headers.get_list("set-cookie"):
            name, _, rest = header.partition("=")
            value = rest.split(";", 1)[0]
            if "max-age=0" in header.lower() or 'expires=thu, 01 jan 1970' in header.lower():
                self.cookies.pop(name, None)
            else:
                self.cookies[name] = value
        match = CSRF_INPUT.search(response.text) if response.headers.get("content-type", "").startswith(
            "text/html") else None
        if match:
            self.csrf = match.group(1)
        elif any(h.startswith("csrftoken=") for h in response.headers.get_list("set-cookie")):
            self.csrf = self.cookies.get("csrftoken", "")  # rotated at login: the cookie's secret is a valid token

    async def _once(self, page: str, method: str, path: str, data: dict | None) -> httpx.Response:
        started = time.monotonic()
        try:
            response = await self.client.request(method, path, data=data, headers=self._headers(data is not None))
            self._keep(response)
        except Exception as error:  # a timeout, a refused connection, anything: counted
            self.stats.error(page, started, failure(error))
            raise RequestFailed(failure(error)) from error
        if response.status_code >= 400:
            self.stats.error(page, started, f"HTTP {response.status_code}")
            raise RequestFailed(f"HTTP {response.status_code} on {method} {path}")
        self.answered_at = time.monotonic()
        self.stats.ok(page, started, self.answered_at - started)
        return response

    async def request(self, page: str, method: str, path: str, data: dict | None = None) -> httpx.Response:
        """One tap: the request and, for a form, the page it redirects to; tapped again after a failure (signing
        in again first when the session is gone) until `retry_until`. Raises RequestFailed after that."""
        while True:
            try:
                if not self.csrf or "sessionid" not in self.cookies:
                    await self.login()
                if data is not None:
                    data = {**data, "csrfmiddlewaretoken": self.csrf}
                response = await self._once(page, method, path, data)
                answered = self.answered_at
                if response.status_code in (301, 302, 303):
                    response = await self._once(f"{page} → page", "GET", response.headers.get("location", "/"), None)
                self.answered_at = answered
                return response
            except RequestFailed:
                if self.retry_until is None or time.monotonic() > self.retry_until:
                    raise
                await asyncio.sleep(RETRY_PAUSE)

    async def login(self) -> None:
        self.cookies.clear()
        await self._once(f"{self.role}: login page", "GET", "/accounts/login/", None)
        started = time.monotonic()
        response = await self._once(f"{self.role}: log in", "POST", "/accounts/login/", {
            "username": self.username, "password": self.password, "csrfmiddlewaretoken": self.csrf})
        if response.status_code != 302 or "sessionid" not in self.cookies:
            self.stats.error(f"{self.role}: log in", started, f"not signed in (HTTP {response.status_code})")
            raise RequestFailed(f"{self.username} could not log in (HTTP {response.status_code})")


def table_result(rng: random.Random, size: int) -> list[int]:
    """Plausible VP: one winner with 10 (now and then 11), the others 2 to 9."""
    vps = [rng.randint(2, 9) for _ in range(size)]
    vps[rng.randrange(size)] = 11 if rng.random() < 0.1 else 10
    return vps


async def play_table(tablet: Tablet, slug: str, table: dict, vps: list[int], sign_off_together: asyncio.Barrier,
                     think: float, rng: random.Random, signed_off: dict[int, float] | None = None) -> None:
    """Enter the scores, have each player sign by tap, then sign off with the game's other tables at once;
    `signed_off[table id]` is when the sign-off's POST was answered."""
    sheet = f"/referee/{slug}/tables/{table['id']}/"
    await tablet.request("referee: sheet", "GET", sheet)
    await asyncio.sleep(rng.uniform(0, think))
    scores = {f"vp_{seat['entry']}": str(vp) for seat, vp in zip(table["seats"], vps)}
    page = await tablet.request("referee: save scores", "POST", f"{sheet}scores/",
                                {**scores, "winner": "", "start_time": "10:00", "end_time": "11:25",
                                 "base_version": "0"})
    version = _hidden(page.text, "version") or "1"
    for seat in table["seats"]:
        await asyncio.sleep(rng.uniform(0, think))
        await tablet.request("referee: sign", "POST", f"{sheet}sign/",
                             {"entry": str(seat["entry"]), "version": version, "image": "", "method": "tap",
                              "decision": ""})
    with contextlib.suppress(asyncio.BrokenBarrierError):  # another table's referee gave up: sign off alone
        await sign_off_together.wait()
    page = await tablet.request("referee: sign off", "POST", f"{sheet}sign-off/", {"version": version})
    if signed_off is not None:
        signed_off[table["id"]] = tablet.answered_at
    if "locked-banner" not in page.text:
        tablet.stats.error("referee: sign off", time.monotonic(), "sheet not locked after sign-off")


def _hidden(html: str, name: str) -> str | None:
    match = re.search(rf'name="{name}" value="(\d+)"', html)
    return match.group(1) if match else None


async def play_game(tablets: list[Tablet], game: dict, results: dict[int, list[int]], think: float,
                    rng: random.Random, signed_off: dict[int, float] | None = None) -> None:
    """Every table of a game at once, one referee per table. Never raises: a referee who gives up (or a fault
    of the harness) is counted in the referee's stats, and the checks afterwards tell what is missing."""
    tables = game["tables"][:len(tablets)]
    barrier = asyncio.Barrier(max(1, len(tables)))

    async def referee(index: int) -> None:
        tablet = tablets[index]
        try:
            await play_table(tablet, game["tournament"], tables[index], results[tables[index]["id"]],
                             barrier, think, rng, signed_off)
        except RequestFailed:  # counted in the stats already
            await barrier.abort()
        except Exception as error:  # a fault of the harness: counted, the other tables go on
            tablet.stats.error("referee (harness)", time.monotonic(), f"{type(error).__name__}: {error}")
            await barrier.abort()

    if len(game["tables"]) > len(tablets):
        for table in game["tables"][len(tablets):]:
            tablets[0].stats.error("referee (harness)", time.monotonic(), f"no referee for table {table['number']}")
    await asyncio.gather(*(referee(i) for i in range(len(tables))))
