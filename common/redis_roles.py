"""The site's Redis servers, by role, and the one way to reach each.

Redis plays four roles, each on the server (or servers) its own URL names;
every one defaults to ``REDIS_URL`` (docs/deployment.md, "Redis"):

* ``channels``: the channel layer (``PULKA_REDIS_CHANNELS_URL``). Several
  URLs, separated by spaces, shard it: channels_redis spreads the channels
  and groups over them by a hash of their names.
* ``cache``: Django's cache, and the small shared state kept under its key
  prefix: who is online, quick play's pings, the sockets' limits
  (``PULKA_REDIS_CACHE_URL``).
* ``live``: the live games' owner leases and the servers' heartbeats
  (``PULKA_REDIS_LIVE_URL``).
* ``broker``: Celery's broker and results (``CELERY_BROKER_URL``; the
  results go with it when it names Redis, else to ``REDIS_URL``).

A URL is one of redis-py's (``redis://[[user]:password@]host:port/db``,
``rediss://...``, ``unix:///path/redis.sock?db=N``) or names a master
through its Sentinels::

    redis+sentinel://[[user]:password@]host:port[,host:port...]/master[/db]

with ``?sentinel_password=...`` when the Sentinels ask for a password of
their own. A client of a Sentinel URL asks the Sentinels where the master
is each time it connects, so after a failover it reconnects to the
replica promoted; meanwhile its commands retry (``FAILOVER_RETRY``) rather
than fail.

Everything that opens a Redis client goes through this module: ``client``
and ``async_client`` for a role, ``connect`` for an address given
(a test's, a benchmark's); the settings take the channel layer's hosts,
the cache's configuration and Celery's URL and transport options from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

import redis
import redis.asyncio as aioredis
import redis.asyncio.retry
import redis.asyncio.sentinel as async_sentinel
import redis.retry
import redis.sentinel
from redis.backoff import ExponentialWithJitterBackoff

ROLES = {
    "channels": "PULKA_REDIS_CHANNELS_URL",
    "cache": "PULKA_REDIS_CACHE_URL",
    "live": "PULKA_REDIS_LIVE_URL",
}
SENTINEL_SCHEME = "redis+sentinel"
# What kombu and redis-py call a Redis address: the schemes of a role's URL
# that are Redis (CELERY_BROKER_URL may name another broker).
REDIS_SCHEMES = ("redis", "rediss", "unix", SENTINEL_SCHEME)
SENTINEL_PORT = 26379
# Connecting to a Sentinel or to the master it names: a dead host is given
# up on quickly, and the next tried.
CONNECT_TIMEOUT = 2.0
# Commands through a Sentinel-named master retry while a failover runs: a
# Sentinel still names the dead master until it promotes a replica (its
# ``down-after-milliseconds`` plus the promotion, a few seconds). About
# 9 s of tries in all, most of them a quarter of a second apart at most, so
# a client is back within a quarter of a second of the promotion.
FAILOVER_RETRY_TIMES = 40
FAILOVER_RETRY_CAP = 0.25


def failover_retry(
    asynchronous: bool,
) -> redis.retry.Retry | redis.asyncio.retry.Retry:
    """The retries of a Sentinel-named master's connections (redis-py has
    a class for its asyncio clients and one for the others)."""
    kind = redis.asyncio.retry.Retry if asynchronous else redis.retry.Retry
    backoff = ExponentialWithJitterBackoff(base=0.05, cap=FAILOVER_RETRY_CAP)
    return kind(backoff, FAILOVER_RETRY_TIMES)


# The channel layer's reads wait for seconds at a time on an idle
# connection: a generous socket timeout.
LAYER_SOCKET_TIMEOUT = 30


@dataclass(frozen=True)
class Sentinels:
    """A ``redis+sentinel://`` URL read: the Sentinels, the master's name,
    and the database and credentials on the master."""

    hosts: tuple[tuple[str, int], ...]
    master: str
    db: int = 0
    username: str | None = None
    password: str | None = None
    sentinel_password: str | None = None

    def sentinel_kwargs(self) -> dict[str, Any]:
        """How to connect to a Sentinel itself."""
        kwargs: dict[str, Any] = {
            "socket_connect_timeout": CONNECT_TIMEOUT,
            "socket_timeout": CONNECT_TIMEOUT,
        }
        if self.sentinel_password:
            kwargs["password"] = self.sentinel_password
        return kwargs

    def master_kwargs(self, *, asynchronous: bool) -> dict[str, Any]:
        """How to connect to the master, beside what the caller adds."""
        kwargs: dict[str, Any] = {
            "connection_class": (
                AsyncFailoverConnection if asynchronous else FailoverConnection
            ),
            "db": self.db,
            "socket_connect_timeout": CONNECT_TIMEOUT,
            "retry": failover_retry(asynchronous),
        }
        if self.username:
            kwargs["username"] = self.username
        if self.password:
            kwargs["password"] = self.password
        return kwargs


class FailoverConnection(redis.sentinel.SentinelManagedConnection):
    """redis-py's connection to a Sentinel-named master, which reconnects
    where the Sentinels say on every try. redis-py's own (8.1) connects a
    dropped connection again before a command at its last address: after
    a failover, the dead master's, try after try until its retries run
    out, though the Sentinels named the new master seconds before."""

    def connect_check_health(
        self, check_health: bool = True, retry_socket_connect: bool = True
    ) -> None:
        if retry_socket_connect and not self._sock:
            # Each try asks the Sentinels (``_connect_retry``).
            self.connect()  # type: ignore[no-untyped-call]
        else:
            super().connect_check_health(
                check_health=check_health, retry_socket_connect=retry_socket_connect
            )


class AsyncFailoverConnection(async_sentinel.SentinelManagedConnection):
    """``FailoverConnection`` for the asyncio clients."""

    async def connect_check_health(
        self, check_health: bool = True, retry_socket_connect: bool = True
    ) -> None:
        if retry_socket_connect and not self.is_connected:
            await self.connect()  # type: ignore[no-untyped-call]
        else:
            await super().connect_check_health(
                check_health=check_health, retry_socket_connect=retry_socket_connect
            )


def urls(value: str) -> list[str]:
    """The URLs of a setting that may list several (separated by spaces)."""
    return value.split()


def sentinels(url: str) -> Sentinels | None:
    """The Sentinels a ``redis+sentinel://`` URL names; None for another."""
    parts = urlsplit(url)
    if parts.scheme != SENTINEL_SCHEME:
        return None
    credentials, _, hostlist = parts.netloc.rpartition("@")
    username, _, password = credentials.partition(":")
    hosts = []
    for host in hostlist.split(","):
        if host.startswith("["):  # an IPv6 address: [::1]:26379
            address, _, port = host[1:].partition("]")
            port = port.removeprefix(":")
        else:
            address, _, port = host.partition(":")
        hosts.append((address, int(port) if port else SENTINEL_PORT))
    path = [unquote(p) for p in parts.path.split("/") if p]
    if not path or len(path) > 2 or not all(address for address, _ in hosts):
        raise ValueError(
            f"a Sentinel URL is {SENTINEL_SCHEME}://host:port[,host:port...]"
            f"/master[/db]: {_safe(url)}"
        )
    query = dict(parse_qsl(parts.query))
    return Sentinels(
        hosts=tuple(hosts),
        master=path[0],
        db=int(path[1]) if len(path) > 1 else 0,
        username=unquote(username) or None,
        password=unquote(password) or None,
        sentinel_password=query.get("sentinel_password"),
    )


def _safe(url: str) -> str:
    """The URL without its password, for a message."""
    parts = urlsplit(url)
    _, at, hostlist = parts.netloc.rpartition("@")
    return urlunsplit(parts._replace(netloc=("***@" if at else "") + hostlist))


def names_redis(url: str) -> bool:
    return urlsplit(url).scheme in REDIS_SCHEMES


def with_database(url: str, number: int) -> str:
    """``url`` with its database number set to ``number``: the path of
    ``redis://host:port/N``, the ``db`` parameter of ``unix:///socket``,
    the last part of a Sentinel URL's path."""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        query = dict(parse_qsl(parts.query), db=str(number))
        return f"unix://{parts.path}?{urlencode(query)}"
    if parts.scheme == SENTINEL_SCHEME:
        named = sentinels(url)
        assert named is not None
        return urlunsplit(parts._replace(path=f"/{named.master}/{number}"))
    return urlunsplit(parts._replace(path=f"/{number}"))


# Clients


def role_url(role: str) -> str:
    """The URL of a role: its setting (the first of the channel layer's)."""
    from django.conf import settings

    return urls(getattr(settings, ROLES[role]))[0]


def client(role: str, **options: Any) -> redis.Redis:
    """A client of the role's Redis (``options``: redis-py's, such as
    ``decode_responses``)."""
    return connect(role_url(role), **options)


def async_client(
    role: str, *, max_connections: int | None = None, **options: Any
) -> aioredis.Redis:
    """An asyncio client of the role's Redis; with ``max_connections``, on
    a blocking pool: a burst of callers waits for a connection rather than
    failing with "too many connections"."""
    url = role_url(role)
    named = sentinels(url)
    if named is None:
        if max_connections is None:
            return aioredis.Redis.from_url(url, **options)
        pool = aioredis.BlockingConnectionPool.from_url(
            url, max_connections=max_connections, **options
        )
        return aioredis.Redis(connection_pool=pool)
    manager = async_sentinel.Sentinel(  # type: ignore[no-untyped-call]
        named.hosts, sentinel_kwargs=named.sentinel_kwargs()
    )
    kwargs = {**named.master_kwargs(asynchronous=True), **options}
    managed: aioredis.ConnectionPool
    if max_connections is None:
        managed = async_sentinel.SentinelConnectionPool(  # type: ignore[no-untyped-call]
            named.master, manager, **kwargs
        )
    else:
        managed = BlockingSentinelPool(  # type: ignore[no-untyped-call]
            named.master, manager, max_connections=max_connections, **kwargs
        )
    return aioredis.Redis.from_pool(managed)


class BlockingSentinelPool(
    async_sentinel.SentinelConnectionPool, aioredis.BlockingConnectionPool
):
    """A Sentinel-managed pool that waits for a free connection, as
    ``BlockingConnectionPool`` does."""


def connect(url: str, **options: Any) -> redis.Redis:
    """A client of the Redis ``url`` names (any form of this module's)."""
    if sentinels(url) is None:
        return redis.Redis.from_url(url, **options)
    client = redis.Redis(connection_pool=SyncPool.from_url(url, **options))
    client.auto_close_connection_pool = True  # as ``from_url``'s: its own pool
    return client


class SyncPool:
    """The connection pool of a URL, plain or Sentinel-named: the
    ``pool_class`` of Django's Redis cache, which calls ``from_url``."""

    @classmethod
    def from_url(cls, url: str, **options: Any) -> redis.ConnectionPool:
        named = sentinels(url)
        if named is None:
            return redis.ConnectionPool.from_url(url, **options)
        manager = redis.sentinel.Sentinel(  # type: ignore[no-untyped-call]
            named.hosts, sentinel_kwargs=named.sentinel_kwargs()
        )
        return redis.sentinel.SentinelConnectionPool(  # type: ignore[no-untyped-call]
            named.master,
            manager,
            **{**named.master_kwargs(asynchronous=False), **options},
        )


# Settings


def layer_hosts(value: str) -> list[dict[str, Any]]:
    """The channel layer's ``hosts`` for a role URL (several: shards)."""
    hosts = []
    for url in urls(value):
        named = sentinels(url)
        if named is None:
            hosts.append({"address": url, "socket_timeout": LAYER_SOCKET_TIMEOUT})
        else:
            hosts.append(
                {
                    "sentinels": list(named.hosts),
                    "master_name": named.master,
                    "sentinel_kwargs": named.sentinel_kwargs(),
                    **named.master_kwargs(asynchronous=True),
                    "socket_timeout": LAYER_SOCKET_TIMEOUT,
                }
            )
    return hosts


def cache(url: str, **config: Any) -> dict[str, Any]:
    """The ``CACHES`` entry of Django's Redis cache on ``url``."""
    entry: dict[str, Any] = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": url,
        **config,
    }
    if sentinels(url) is not None:
        # A list, which Django does not split at the Sentinels' commas.
        entry["LOCATION"] = [url]
        entry["OPTIONS"] = {
            **entry.get("OPTIONS", {}),
            "pool_class": "common.redis_roles.SyncPool",
        }
    return entry


def celery_url(url: str) -> str:
    """Celery's (kombu's) URL for a Redis address; another broker's as it
    is. kombu names Redis on a Unix socket ``redis+socket://`` where redis-py
    says ``unix://``, and takes its database number as ``virtual_host``
    where redis-py says ``db``; it names Sentinels ``sentinel://host:port``,
    one URL each, separated by ``;``, with the master's name in the
    transport options (``celery_transport_options``)."""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        query = urlencode(
            [("virtual_host" if key == "db" else key, value)
             for key, value in parse_qsl(parts.query)]
        )  # fmt: skip
        return f"redis+socket://{parts.path}" + (f"?{query}" if query else "")
    named = sentinels(url)
    if named is None:
        return url
    credentials, at, _ = parts.netloc.rpartition("@")
    return ";".join(
        f"sentinel://{credentials}{at}{_host(host)}:{port}/{named.db}"
        for host, port in named.hosts
    )


def _host(address: str) -> str:
    return f"[{address}]" if ":" in address else address


def celery_transport_options(url: str) -> dict[str, Any]:
    """Celery's transport options for the broker or results on ``url``."""
    named = sentinels(url)
    if named is None:
        return {}
    return {"master_name": named.master, "sentinel_kwargs": named.sentinel_kwargs()}
