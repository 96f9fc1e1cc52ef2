"""The Redis roles' URLs read into what each client and setting needs
(common/redis_roles.py): plain addresses as they were, Sentinel-named
masters for redis-py, channels_redis, Django's cache and Celery."""

from __future__ import annotations

import pytest
import redis.asyncio.retry
import redis.retry
from django.core.cache.backends.redis import RedisCache

from common import redis_roles
from common.redis_roles import Sentinels

SENTINEL_URL = "redis+sentinel://:secret@10.0.0.1:26379,10.0.0.2,[::1]:26380/pulka/3"


def test_a_sentinel_url_names_the_sentinels_the_master_and_the_database():
    assert redis_roles.sentinels(SENTINEL_URL) == Sentinels(
        hosts=(("10.0.0.1", 26379), ("10.0.0.2", 26379), ("::1", 26380)),
        master="pulka",
        db=3,
        password="secret",
    )
    named = redis_roles.sentinels("redis+sentinel://h:1/m?sentinel_password=s%20p")
    assert named == Sentinels(hosts=(("h", 1),), master="m", sentinel_password="s p")
    assert named.sentinel_kwargs()["password"] == "s p"


@pytest.mark.parametrize(
    "url",
    ["redis://h:6379/0", "rediss://h/1", "unix:///tmp/redis.sock?db=2", "amqp://h//"],
)
def test_other_urls_name_no_sentinels(url):
    assert redis_roles.sentinels(url) is None


@pytest.mark.parametrize(
    "url", ["redis+sentinel://h:1", "redis+sentinel://h:1/m/0/x", "redis+sentinel:///m"]
)
def test_a_sentinel_url_without_its_master_is_refused(url):
    with pytest.raises(ValueError, match="master"):
        redis_roles.sentinels(url)


def test_with_database_sets_the_number_in_each_form():
    assert redis_roles.with_database("redis://h:6379/0", 4) == "redis://h:6379/4"
    assert redis_roles.with_database("unix:///s.sock?db=1", 4) == "unix:///s.sock?db=4"
    assert redis_roles.with_database(SENTINEL_URL, 4) == SENTINEL_URL.replace(
        "/pulka/3", "/pulka/4"
    )
    assert redis_roles.with_database("redis+sentinel://h:1/m", 2).endswith("/m/2")


def test_plain_urls_configure_as_before():
    assert redis_roles.layer_hosts("redis://h:6379/0") == [
        {"address": "redis://h:6379/0", "socket_timeout": 30}
    ]
    assert redis_roles.cache("redis://h:6379/0", KEY_PREFIX="p") == {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://h:6379/0",
        "KEY_PREFIX": "p",
    }
    assert redis_roles.celery_url("redis://h:6379/0") == "redis://h:6379/0"
    assert (
        redis_roles.celery_url("unix:///s.sock?db=2")
        == "redis+socket:///s.sock?virtual_host=2"
    )
    assert redis_roles.celery_url("amqp://h//") == "amqp://h//"
    assert redis_roles.celery_transport_options("redis://h:6379/0") == {}


def test_several_channel_layer_urls_are_its_shards():
    hosts = redis_roles.layer_hosts(f"redis://a:6379/0 {SENTINEL_URL}")
    assert hosts[0] == {"address": "redis://a:6379/0", "socket_timeout": 30}
    sentinel = hosts[1]
    assert sentinel["sentinels"] == [
        ("10.0.0.1", 26379),
        ("10.0.0.2", 26379),
        ("::1", 26380),
    ]
    assert sentinel["master_name"] == "pulka"
    assert sentinel["db"] == 3 and sentinel["password"] == "secret"
    # channels_redis's clients are asyncio ones: so are their retries.
    assert isinstance(sentinel["retry"], redis.asyncio.retry.Retry)
    assert sentinel["connection_class"] is redis_roles.AsyncFailoverConnection


def test_celery_names_each_sentinel_and_the_master_in_its_options():
    assert redis_roles.celery_url(SENTINEL_URL) == (
        "sentinel://:secret@10.0.0.1:26379/3;"
        "sentinel://:secret@10.0.0.2:26379/3;"
        "sentinel://:secret@[::1]:26380/3"
    )
    options = redis_roles.celery_transport_options(SENTINEL_URL)
    assert options["master_name"] == "pulka"


def test_the_cache_reaches_a_sentinel_named_master_through_its_pool():
    config = redis_roles.cache(SENTINEL_URL, KEY_PREFIX="p")
    assert config["LOCATION"] == [SENTINEL_URL]
    cache = RedisCache(config["LOCATION"], {"OPTIONS": config["OPTIONS"]})
    pool = cache._cache._get_connection_pool(write=True)
    assert isinstance(pool, redis.sentinel.SentinelConnectionPool)
    assert pool.service_name == "pulka"
    assert pool.connection_kwargs["db"] == 3
    assert isinstance(pool.connection_kwargs["retry"], redis.retry.Retry)
    assert pool.connection_class is redis_roles.FailoverConnection


def test_clients_of_a_sentinel_url_ask_the_sentinels(settings):
    settings.PULKA_REDIS_LIVE_URL = SENTINEL_URL
    client = redis_roles.client("live", decode_responses=True)
    assert isinstance(client.connection_pool, redis.sentinel.SentinelConnectionPool)
    pool = redis_roles.async_client("live", max_connections=5).connection_pool
    assert isinstance(pool, redis_roles.BlockingSentinelPool)
    assert pool.max_connections == 5
    assert pool.service_name == "pulka"
    assert pool.connection_class is redis_roles.AsyncFailoverConnection
