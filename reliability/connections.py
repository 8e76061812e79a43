"""Connections to the stack: a pool per client address, each connecting from its own loopback address."""
import asyncio
import ssl

import httpx

TIMEOUT = httpx.Timeout(15.0, connect=5.0)


class Clients:
    """A connection pool per client address (made when first asked for), all to `base_url`, sending `host` as the
    Host header (and, for a replica reached without nginx, `headers` such as X-Forwarded-Proto); `verify` is the
    TLS context that trusts the stack's CA. `get` and `request` are the harness's own requests."""

    def __init__(self, base_url: str, host: str | None = None, verify: ssl.SSLContext | bool = True,
                 headers: dict[str, str] | None = None, transport: httpx.AsyncBaseTransport | None = None):
        self.base_url, self.verify, self.transport = base_url, verify, transport
        self.headers = {**({"Host": host} if host else {}), **(headers or {})}
        self.made: dict[str | None, httpx.AsyncClient] = {}

    def at(self, address: str | None) -> httpx.AsyncClient:
        if address not in self.made:
            transport = self.transport or httpx.AsyncHTTPTransport(
                verify=self.verify, local_address=address, limits=httpx.Limits(max_connections=4))
            self.made[address] = httpx.AsyncClient(base_url=self.base_url, timeout=TIMEOUT, headers=self.headers,
                                                   follow_redirects=False, transport=transport)
        return self.made[address]

    async def get(self, path: str, **options) -> httpx.Response:
        return await self.at(None).get(path, **options)

    async def request(self, method: str, path: str, **options) -> httpx.Response:
        return await self.at(None).request(method, path, **options)

    async def __aenter__(self) -> "Clients":
        return self

    async def __aexit__(self, *exc) -> None:
        await asyncio.gather(*(client.aclose() for client in self.made.values()), return_exceptions=True)


def new_http_client(base_url: str, host: str | None = None, verify: ssl.SSLContext | bool = True) -> Clients:
    return Clients(base_url, host, verify)
