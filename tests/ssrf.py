"""Addresses that lead back into the server's own network (server-side request forgery), as the attacks of issues 22
and 33 wrote them: every request the server makes (webhooks, Web Push) must refuse each one (core/outbound.py)."""

EMBEDDED_V6 = [
    "64:ff9b::7f00:1",         # NAT64 of 127.0.0.1
    "64:ff9b::a9fe:a9fe",      # NAT64 of the metadata address 169.254.169.254
    "64:ff9b:1::a00:1",        # local-use NAT64
    "::7f00:1",                # IPv4-compatible 127.0.0.1
    "::ffff:0:7f00:1",         # IPv4-translated 127.0.0.1
    "::ffff:127.0.0.1",        # IPv4-mapped
    "::ffff:a00:1",            # IPv4-mapped 10.0.0.1
    "2002:7f00:1::",           # 6to4 of 127.0.0.1
    "2002:c0a8:1::1",          # 6to4 of 192.168.0.1
    "fec0::1",                 # site-local
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",  # Teredo
    "::1", "::", "fe80::1", "fd00::1",
]
"""IPv6 forms of a local address, IPv4 inside or not (33.7)."""

LITERAL_HOSTS = [
    "127.0.0.1", "2130706433", "0177.0.0.1", "0x7f.0.0.1", "127.1", "10.1.2.3", "192.168.0.10", "172.16.0.1",
    "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255",
    *[f"[{address}]" for address in EMBEDDED_V6],
]
"""Hosts of a URL that are themselves a non-public address, in the forms the resolver reads (refused without DNS)."""

SPECIAL_NAMES = ["localhost", "LOCALHOST.", "api.localhost", "metadata.google.internal", "printer.local",
                 "router.home.arpa", "db.localdomain"]
"""Names that are never on the internet."""

PUBLIC_V6 = ["64:ff9b::808:808", "2002:808:808::1", "::ffff:8.8.8.8", "2606:4700:4700::1111"]
"""IPv6 forms of public addresses: still reachable (an IPv6-only server reaches IPv4 receivers through NAT64)."""


def resolver(names: dict[str, list[str]]):
    """A stand-in for the guard's resolver (`core.outbound.lookup`, no DNS in tests): the addresses `names` gives a
    host, an address written as the host itself, and "not found" for anything else."""
    from core import outbound

    def lookup(host: str, port: int) -> list[str]:
        if host in names:
            return names[host]
        address = outbound.literal(host)
        if address is None:
            raise OSError(f"{host} not found")
        return [str(address)]

    return lookup
