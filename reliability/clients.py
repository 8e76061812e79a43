"""The clients: spectators reading the public pages, referees playing tables as the tablet does.

One asyncio loop and one httpx client for everyone (the server, not the clients, must be what is
measured on two cores). Requests go to plain HTTP on loopback with `X-Forwarded-Proto: https`, as
the TLS proxy in front of a deployment sends it (production settings redirect anything else). The
session and CSRF cookies are `Secure`, so cookies are kept by hand per referee.
"""
import asyncio
import contextlib
import random
import re
import time
from collections import defaultdict
from dataclasses import dataclass, field

import httpx

PROXY_HEADERS = {"X-Forwarded-Proto": "https"}
TIMEOUT = httpx.Timeout(15.0, connect=5.0)
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


@dataclass
class Stats:
    """Latencies and failures per page name, each stamped with the time it happened."""

    latencies: dict[str, list[tuple[float, float]]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, list[tuple[float, str]]] = field(default_factory=lambda: defaultdict(list))

    def ok(self, page: str, started: float, seconds: float) -> None:
        self.latencies[page].append((started, seconds))

    def error(self, page: str, started: float, what: str) -> None:
        self.errors[page].append((started, what))

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
        """One line per page: requests, errors, throughput and latency percentiles (ms)."""
        pages = pages or sorted(set(self.latencies) | set(self.errors))
        lines = [f"{'page':<34} {'requests':>8} {'errors':>6} {'req/s':>7} {'p50 ms':>7} {'p95 ms':>7} "
                 f"{'p99 ms':>7} {'max ms':>7}"]
        for page in pages:
            times = [s * 1000 for _, s in self.latencies.get(page, [])]
            errors = len(self.errors.get(page, []))
            lines.append(f"{page:<34} {len(times) + errors:>8} {errors:>6} {(len(times) + errors) / seconds:>7.1f} "
                         f"{percentile(times, .5):>7.0f} {percentile(times, .95):>7.0f} "
                         f"{percentile(times, .99):>7.0f} {max(times, default=float('nan')):>7.0f}")
        return lines

    def summary(self, pages: list[str]) -> dict:
        times = [s * 1000 for page in pages for _, s in self.latencies.get(page, [])]
        errors = sum(len(self.errors.get(page, [])) for page in pages)
        return {"requests": len(times) + errors, "errors": errors, "p50": percentile(times, .5),
                "p95": percentile(times, .95), "p99": percentile(times, .99)}


def new_http_client(base_url: str, connections: int) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=base_url, timeout=TIMEOUT, headers=PROXY_HEADERS, follow_redirects=False,
                             limits=httpx.Limits(max_connections=connections, max_keepalive_connections=connections))


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
    """One reader's browser tab: a cache of ETags (pages are `no-cache`, so it revalidates), as a browser does."""

    def __init__(self, client: httpx.AsyncClient, stats: Stats):
        self.client, self.stats = client, stats
        self.etags: dict[tuple[str, bool], str] = {}
        self.bodies: dict[tuple[str, bool], str] = {}

    async def get(self, name: str, path: str, htmx: bool = False) -> str | None:
        headers = {"HX-Request": "true"} if htmx else {}
        if etag := self.etags.get((path, htmx)):
            headers["If-None-Match"] = etag
        started = time.monotonic()
        try:
            response = await self.client.get(path, headers=headers)
        except httpx.HTTPError as error:
            self.stats.error(name, started, type(error).__name__)
            return None
        if response.status_code == 304:
            self.stats.ok(name, started, time.monotonic() - started)
            return self.bodies.get((path, htmx))
        if response.status_code != 200:
            self.stats.error(name, started, f"HTTP {response.status_code}")
            return None
        self.stats.ok(name, started, time.monotonic() - started)
        if etag := response.headers.get("etag"):
            self.etags[(path, htmx)] = etag
            self.bodies[(path, htmx)] = response.text
        return response.text


async def _pause(stop: asyncio.Event, seconds: float) -> bool:
    """Sleep, waking early when the run stops; True while it goes on."""
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except TimeoutError:
        return True
    return False


async def spectator(client: httpx.AsyncClient, pages, stats: Stats, stop: asyncio.Event, dwell: float,
                    rng: random.Random) -> None:
    """A reader: opens a page and stays on it a while (exponential, mean `dwell` s) doing what its script does.

    A live page (`<div id="live" data-live-url=…>`, static/js/live.js) polls its version every few seconds
    and, when it changed, refreshes its live region through htmx (the projector reloads the page). A page
    with the older `hx-trigger="every Ns"` polls that. JSON and CSV readers re-read every 10 s or so.
    """
    browser = Browser(client, stats)
    names = [(name, path) for name, path, _w in pages]
    weights = [w for *_x, w in pages]
    if not await _pause(stop, rng.uniform(0, 4)):
        return
    while not stop.is_set():
        name, path = rng.choices(names, weights)[0]
        leave = time.monotonic() + rng.expovariate(1 / dwell)
        body = await browser.get(name, path)
        live = LIVE.search(body or "")
        legacy = None if live else LEGACY_POLL.search(body or "")
        while time.monotonic() < leave:
            if live:
                url, version, every, reload = live.groups()
                if not await _pause(stop, int(every or 4)):
                    return
                answer = await browser.get("public-version (live poll)", url)
                current = _version(answer)
                if current and current != version:
                    await browser.get(name if reload else f"{name} (live refresh)", path, htmx=not reload)
                    live = LIVE.search(f'<div id="live" data-live-url="{url}" data-live-version="{current}" '
                                       f'data-poll-seconds="{every or 4}"{reload or ""}>')
            elif legacy:
                if not await _pause(stop, int(legacy.group(2))):
                    return
                await browser.get(f"{name} (htmx poll)", legacy.group(1), htmx=True)
            else:
                if not await _pause(stop, rng.uniform(5, 15)):
                    return
                await browser.get(name, path)


def _version(answer: str | None) -> str | None:
    match = re.search(r'"version":\s*"([^"]*)"', answer or "")
    return match.group(1) if match else None


# --- referees -----------------------------------------------------------------------------------

class RequestFailed(Exception):
    pass


class Tablet:
    """A referee's tablet: logged in, its own cookies, CSRF token from each page; forms POSTed without JS."""

    def __init__(self, client: httpx.AsyncClient, base_url: str, username: str, password: str, stats: Stats,
                 retry_until: float | None = None):
        self.client, self.base_url, self.stats = client, base_url, stats
        self.username, self.password = username, password
        self.cookies: dict[str, str] = {}
        self.csrf = ""
        self.retry_until = retry_until
        """A monotonic deadline: until then a failed request is tapped again, as a referee would after an error."""

    def _headers(self, post: bool) -> dict:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if post:  # the browser's, checked by Django's CSRF protection over HTTPS
            headers.update(Origin=f"https://{self.base_url.split('://')[1]}", Referer=f"https://{self.base_url.split('://')[1]}/")
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
        except httpx.HTTPError as error:
            self.stats.error(page, started, type(error).__name__)
            raise RequestFailed(type(error).__name__) from error
        self._keep(response)
        if response.status_code >= 400:
            self.stats.error(page, started, f"HTTP {response.status_code}")
            raise RequestFailed(f"HTTP {response.status_code} on {method} {path}")
        self.stats.ok(page, started, time.monotonic() - started)
        return response

    async def request(self, page: str, method: str, path: str, data: dict | None = None) -> httpx.Response:
        """One tap: the request and, for a form, the page it redirects to; tapped again after a failure."""
        while True:
            try:
                if data is not None:
                    data = {**data, "csrfmiddlewaretoken": self.csrf}
                response = await self._once(page, method, path, data)
                if response.status_code in (301, 302, 303):
                    response = await self._once(f"{page} → page", "GET", response.headers["location"], None)
                return response
            except RequestFailed:
                if self.retry_until is None or time.monotonic() > self.retry_until:
                    raise
                await asyncio.sleep(0.5)
                if not self.csrf or "sessionid" not in self.cookies:
                    await self.login()

    async def login(self) -> None:
        self.cookies.clear()
        await self._once("referee: login page", "GET", "/accounts/login/", None)
        response = await self._once("referee: log in", "POST", "/accounts/login/", {
            "username": self.username, "password": self.password, "csrfmiddlewaretoken": self.csrf})
        if response.status_code != 302 or "sessionid" not in self.cookies:
            raise RequestFailed(f"{self.username} could not log in (HTTP {response.status_code})")


def table_result(rng: random.Random, size: int) -> list[int]:
    """Plausible VP: one winner with 10 (now and then 11), the others 2 to 9."""
    vps = [rng.randint(2, 9) for _ in range(size)]
    vps[rng.randrange(size)] = 11 if rng.random() < 0.1 else 10
    return vps


async def play_table(tablet: Tablet, slug: str, table: dict, vps: list[int], sign_off_together: asyncio.Barrier,
                     think: float, rng: random.Random) -> None:
    """Enter the scores, have each player sign by tap, then sign off with the game's other tables at once."""
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
    if "locked-banner" not in page.text:
        tablet.stats.error("referee: sign off", time.monotonic(), "sheet not locked after sign-off")


def _hidden(html: str, name: str) -> str | None:
    match = re.search(rf'name="{name}" value="(\d+)"', html)
    return match.group(1) if match else None


async def play_game(tablets: list[Tablet], game: dict, results: dict[int, list[int]], think: float,
                    rng: random.Random) -> None:
    """Every table of a game at once, one referee per table."""
    tables = game["tables"]
    barrier = asyncio.Barrier(len(tables))

    async def referee(index: int) -> None:
        try:
            await play_table(tablets[index], game["tournament"], tables[index], results[tables[index]["id"]],
                             barrier, think, rng)
        except RequestFailed:  # counted in the stats; the check afterwards tells whether a result is missing
            await barrier.abort()

    if len(tables) > len(tablets):
        raise ValueError("more tables than referees: the sign-off barrier would never open")
    await asyncio.gather(*(referee(i) for i in range(min(len(tablets), len(tables)))))
