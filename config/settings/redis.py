"""Redis's roles and their servers: the channel layer, the cache, the live
games' leases, Celery's broker and results; part of every environment's
settings (``base`` takes them in)."""

from typing import Any

from common import redis_roles
from config import embedded

from .environment import env

# Redis carries the channel layer, the cache and Celery: REDIS_URL, e.g.
# redis://host:6379/0, or the embedded server's socket. Each of its roles
# may have a server of its own, named by its own URL, and any URL may name a
# master through its Sentinels (redis+sentinel://host:26379,.../master/0):
# common/redis_roles.py, docs/deployment.md.
REDIS_URL = env("REDIS_URL", default=embedded.redis_url())
# The channel layer; several URLs, separated by spaces, shard it.
PULKA_REDIS_CHANNELS_URL = env("PULKA_REDIS_CHANNELS_URL", default=REDIS_URL)
# The cache, and the shared state kept under its key prefix (who is online,
# quick play's pings, the sockets' limits).
PULKA_REDIS_CACHE_URL = env("PULKA_REDIS_CACHE_URL", default=REDIS_URL)
# The live games' owner leases and the servers' heartbeats.
PULKA_REDIS_LIVE_URL = env("PULKA_REDIS_LIVE_URL", default=REDIS_URL)
# Celery's broker (Redis or another), and its results: with the broker when
# that is Redis, else on REDIS_URL.
PULKA_BROKER_URL = env("CELERY_BROKER_URL", default=REDIS_URL)
PULKA_RESULTS_URL = (
    PULKA_BROKER_URL if redis_roles.names_redis(PULKA_BROKER_URL) else REDIS_URL
)

# Redis Pub/Sub carries the live updates: a group send is one PUBLISH, where
# the list-based layer needs several round trips and a script per group,
# which made up a good part of every move's round trip. Messages are not
# kept for a consumer that is not listening; the clients need none of them
# kept: a client that misses a version asks for a sync, and so does every
# reconnecting one.
CHANNEL_LAYERS: dict[str, dict[str, Any]] = {
    "default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": redis_roles.layer_hosts(PULKA_REDIS_CHANNELS_URL)},
    },
}
CACHES = {"default": redis_roles.cache(PULKA_REDIS_CACHE_URL, KEY_PREFIX="pulka")}
CELERY_BROKER_URL = redis_roles.celery_url(PULKA_BROKER_URL)
CELERY_BROKER_TRANSPORT_OPTIONS = redis_roles.celery_transport_options(PULKA_BROKER_URL)
CELERY_RESULT_BACKEND = redis_roles.celery_url(PULKA_RESULTS_URL)
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = redis_roles.celery_transport_options(
    PULKA_RESULTS_URL
)
