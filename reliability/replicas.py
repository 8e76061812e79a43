"""Two replicas behind nginx, compared and watched apart: throughput with one and with both (`side_by_side`), and
clients of each replica directly (`replica_clients`), for readers that must be told of a sign-off by the replica
they read, whichever one took it."""
import asyncio
import time

from .clients import Browser, Clients, Stats, client_address
from .stack import Stack, log


def replica_clients(stack: Stack) -> dict[str, Clients]:
    """Clients of each replica directly, not through nginx (as nginx sends them: the site's host, https)."""
    return {f"web-{number}": Clients(f"http://127.0.0.1:{port}", stack.site_host,
                                     headers={"X-Forwarded-Proto": "https"})
            for number, port in enumerate(stack.replica_ports, 1)}


async def throughput(client, path: str, seconds: float, readers: int = 30) -> tuple[float, float, int]:
    """`readers` reading `path` one request after the other for `seconds`, each request with a query parameter of
    its own (nginx keeps each address apart, the app's page cache ignores what a page does not use): what the
    replicas serve, not nginx's cache. Requests per second, p95 ms, errors."""
    stats, stop, numbers = Stats(), time.monotonic() + seconds, iter(range(10**9))

    async def reader(index: int) -> None:
        browser = Browser(client, stats, client_address(4, index))
        while time.monotonic() < stop:
            await browser.get("throughput", f"{path}?n={next(numbers)}")

    started = time.monotonic()
    await asyncio.gather(*(reader(i) for i in range(readers)))
    summary = stats.summary(["throughput"])
    return summary["requests"] / (time.monotonic() - started), summary["p95"], summary["errors"]


async def side_by_side(stack: Stack, client, path: str, seconds: float) -> tuple[list[str], int]:
    """Throughput with one replica (the other stopped; nginx sends everything to the one left) and with all: a line
    each, and the requests that failed."""
    lines, failed = [], 0
    for replicas in (1, len(stack.replica_ports)):
        for number in range(replicas + 1, len(stack.replica_ports) + 1):
            await asyncio.to_thread(stack.stop_replica, number)
        rate, p95, errors = await throughput(client, path, seconds)
        failed += errors
        lines.append(f"  {replicas} replica{'s' if replicas > 1 else ''} × {stack.workers_per_replica} workers: "
                     f"{rate:.0f} req/s, p95 {'—' if p95 != p95 else f'{p95:.0f}'} ms, {errors} errors")
        log(lines[-1].strip())
        for number in range(1, len(stack.replica_ports) + 1):
            if number not in stack.replicas:
                await asyncio.to_thread(stack.start_replica, number)
    return lines, failed
