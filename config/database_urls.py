"""DATABASE_URL (and DATABASE_DIRECT_URL, DATABASE_REPLICA_URL) as Django's
database settings, multi-host connection strings included.

A deployment with a streaming replica names both servers in one URL, as
libpq does::

    postgres://pulka@db1:5432,db2:5432/pulka?target_session_attrs=read-write

and every connection of every process (Django's pool, the live games'
journal, beat's lock session) tries the hosts in turn and keeps the first
that takes writes: after a failover, whichever was promoted. Django passes
``HOST`` and ``PORT`` to psycopg as they are, and libpq takes
comma-separated lists in both, paired in order; the query's parameters
(``target_session_attrs``, ``connect_timeout``, ``sslmode`` ...) become
``OPTIONS``, which psycopg passes on.

django-environ parses such a URL nearly right: it joins the hosts with
commas, but it drops the ports when only some hosts have one (``h1:6000,h2``
gives ``PORT`` 6000, which libpq would use for both) and keeps an IPv6
address's brackets (libpq wants ``::1``). ``database`` takes its parse and
sets ``HOST`` and ``PORT`` from the URL's own list, one port per host (5432
where a host names none).

This module imports nothing from Django: the settings use it.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urlsplit

import environ

DEFAULT_PORT = "5432"


def database(url: str) -> dict[str, Any]:
    """Django's settings for one database from its URL (see the module)."""
    config = environ.Env.db_url_config(url)
    hosts = hosts_and_ports(url)
    if len(hosts) > 1:
        config["HOST"] = ",".join(host for host, _ in hosts)
        ports = [port for _, port in hosts]
        config["PORT"] = ",".join(ports) if any(ports) else ""
    return config


def hosts_and_ports(url: str) -> list[tuple[str, str]]:
    """The URL's hosts with their ports, in order: ``[("db1", "5432"),
    ("db2", "5433")]``. A host without a port has 5432 when another has
    one; a URL without a host (a Unix socket in ``?host=``) has none."""
    netloc = urlsplit(url).netloc.rpartition("@")[2]
    if not netloc:
        return []
    found = []
    for part in netloc.split(","):
        if part.startswith("["):  # [IPv6]:port
            host, _, rest = part[1:].partition("]")
            port = rest.removeprefix(":")
        else:
            host, _, port = part.partition(":")
        found.append((unquote(host), port))
    if any(port for _, port in found):
        found = [(host, port or DEFAULT_PORT) for host, port in found]
    return found


def is_multi_host(config: dict[str, Any]) -> bool:
    return "," in str(config.get("HOST") or "")
