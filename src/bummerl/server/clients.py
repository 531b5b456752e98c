"""Who a client is, for limits: one key per address (an IPv6 client by its /64 network).

Rate limits and caps count per client key, so one host cannot take more than its
share of tables, connections or analyses however many sockets it opens.  An IPv6
host usually owns a whole /64 network and could otherwise take a fresh address
for every request.  Behind a reverse proxy the address is the proxy's own unless
uvicorn is told to trust it (``--forwarded-allow-ips``, docs/security.md).

>>> client_key("203.0.113.7")
'203.0.113.7'
>>> client_key("2001:db8:1:2:aaaa:bbbb:cccc:dddd") == client_key("2001:db8:1:2::1")
True
>>> client_key("::ffff:203.0.113.7")
'203.0.113.7'
>>> client_key(None), client_key("testclient")
('unknown', 'testclient')
"""

from __future__ import annotations

import ipaddress

__all__ = ["client_key"]


def client_key(host: str | None) -> str:
    """The key under which a client's requests and connections are counted."""
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]  # not an address (a test client's name): counted as it is
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)
