"""The client's address, and the digest of it that the site keeps.

Every reader of the client's address goes through ``client_address``: the
connection's peer as ``config.forwarded`` leaves it (the client itself when
the site is reached directly, or the address a trusted proxy forwarded),
the same address django-axes counts failed logins by.

The site keeps no address. Where it must tell whether two accounts came from
the same place (sign-ups per address, accounts that play each other from one
address: ``accounts.farming``), it keeps ``address_digest``: an HMAC of the
address keyed with the site's secret key. Equal addresses give equal
digests, but a digest cannot be turned back into its address without the
key, where a plain hash could: there are only 2**32 IPv4 addresses to try.
"""

from __future__ import annotations

import ipaddress

from django.http import HttpRequest
from django.utils.crypto import salted_hmac

# An IPv6 host is usually given a whole /64: the interface identifier is the
# low 64 bits of a global unicast address (RFC 4291, section 2.5.4), and a
# home or a phone gets at least that (RFC 6177). Counted one address at a
# time, a single host would have 2**64 of them.
IPV6_NETWORK_BITS = 64


def client_address(request: HttpRequest) -> str:
    """The address the request came from ("" when unknown): the
    connection's, as the site's trusted-proxy middleware left it."""
    return request.META.get("REMOTE_ADDR") or ""


def address_group(address: str) -> str:
    """What counts as one place: the address itself for IPv4 (an IPv4
    address mapped into IPv6 included), its /64 network for IPv6; "" for
    something that is not an address."""
    try:
        parsed = ipaddress.ip_address(address.strip())
    except ValueError:
        return ""
    if parsed.version == 6 and parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    if parsed.version == 6:
        network = ipaddress.ip_network(f"{parsed}/{IPV6_NETWORK_BITS}", strict=False)
        return str(network)
    return str(parsed)


def address_digest(address: str) -> str:
    """The keyed digest the site keeps for ``address`` (64 hex digits), or ""
    when it is not an address. Changing ``SECRET_KEY`` changes every digest:
    those kept before no longer match the new ones."""
    group = address_group(address)
    if not group:
        return ""
    return salted_hmac(
        "pulka.accounts.addresses", group, algorithm="sha256"
    ).hexdigest()
