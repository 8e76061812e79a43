"""The live-update delay of `make load`: from a sign-off to the moment readers are told of results including it.

Two probes poll the tournament's version endpoint (`/t/<slug>/version/`) a few times a second: one signed in as
staff, who is always shown the newest results version, and one anonymous reader, who is shown the version whose
pages are ready (`ranking.refresh.reader_version`). A sign-off changes the version before it is answered, so a
version that was the newest at some moment after the answer includes that sign-off. For each sign-off:

* announced: seconds from its answer until the anonymous probe is shown such a version;
* every open page: seconds until the last of the live pages open at that moment learns of such a version through
  its own poll (every few seconds); pages left before they learned are left out.

A version the staff probe never saw as the newest (replaced within one probe interval) does not count, so the
figures are upper bounds, by at most the time until the next version is announced.
"""
import asyncio
import time
from dataclasses import dataclass, field

from .clients import Browser, RequestFailed, Stats, Tablet, client_address, pause, percentile, version_in

PROBE_SECONDS = 0.25


@dataclass
class LiveLog:
    """(when, version) as each probe and each open page saw it; `newest` stamped when its request was sent."""

    newest: list[tuple[float, str]] = field(default_factory=list)
    announced: list[tuple[float, str]] = field(default_factory=list)
    pages: dict[object, list[tuple[float, str]]] = field(default_factory=dict)
    replicas: dict[str, list[tuple[float, str]]] = field(default_factory=dict)
    """What an anonymous reader connected to each replica directly (not through nginx) was shown: a sign-off,
    taken by one replica or the other, must be announced by both."""

    def page(self, visit: object, when: float, version: str) -> None:
        self.pages.setdefault(visit, []).append((when, version))


def _including(log: LiveLog, signed_off: float) -> set[str]:
    return {version for sent, version in log.newest if sent >= signed_off}


def _first(seen: list[tuple[float, str]], after: float, including: set[str]) -> float | None:
    return next((when for when, version in seen if when >= after and version in including), None)


def announced_delays(log: LiveLog, signed_off: dict[int, float], replica: str | None = None
                     ) -> dict[int, float | None]:
    """Per table: seconds from its sign-off's answer to the first reader version including it (None: not yet), as
    readers through nginx were shown it, or readers of one `replica`."""
    delays = {}
    seen = log.announced if replica is None else log.replicas.get(replica, [])
    for table, moment in signed_off.items():
        shown = _first(seen, moment, _including(log, moment))
        delays[table] = None if shown is None else shown - moment
    return delays


def page_delays(log: LiveLog, signed_off: dict[int, float]) -> dict[int, float]:
    """Per table whose sign-off an open page learned of: seconds until the last such page knew."""
    delays = {}
    for table, moment in signed_off.items():
        including = _including(log, moment)
        firsts = [_first(seen, moment, including) for seen in log.pages.values() if seen[0][0] < moment]
        learned = [when - moment for when in firsts if when is not None]
        if learned:
            delays[table] = max(learned)
    return delays


def summary(delays: list[float | None]) -> dict:
    known = [d for d in delays if d is not None]
    return {"count": len(delays), "missing": len(delays) - len(known), "p50": percentile(known, .5),
            "p95": percentile(known, .95), "max": max(known, default=float("nan"))}


async def probe(client, staff: Tablet, path: str, log: LiveLog, stats: Stats, stop: asyncio.Event,
                replicas: dict | None = None) -> None:
    """Poll `path` as staff and as an anonymous reader every PROBE_SECONDS until `stop` (failures counted), and as
    an anonymous reader of each of `replicas` (name → its clients, connected to it directly)."""
    reader = Browser(client, stats, client_address(3, 0), stop)
    direct = {name: Browser(clients, stats, None, stop) for name, clients in (replicas or {}).items()}
    while not stop.is_set():
        sent = time.monotonic()
        try:
            newest = version_in((await staff.request("live probe: version, signed in", "GET", path)).text)
        except RequestFailed:  # counted in `stats` already
            newest = None
        if newest:
            log.newest.append((sent, newest))
        if shown := version_in(await reader.get("live probe: version, anonymous", path)):
            log.announced.append((time.monotonic(), shown))
        for name, browser in direct.items():
            if shown := version_in(await browser.get(f"live probe: version, anonymous on {name}", path)):
                log.replicas.setdefault(name, []).append((time.monotonic(), shown))
        await pause(stop, PROBE_SECONDS)
