"""PostgreSQL: the primary (or a multi-host URL that finds it), the pools,
a pooler in front, a replica for harmless reads; part of every
environment's settings (``base`` takes them in)."""

from config import connections, database_urls, embedded

from .environment import env

# Database: DATABASE_URL, e.g. postgres://user@host:5432/pulka (psycopg 3),
# or a primary and its replicas in one multi-host URL that finds whichever
# takes writes: postgres://user@db1:5432,db2:5432/pulka?target_session_attrs=
# read-write (config.database_urls; docs/deployment.md, "PostgreSQL").
DATABASES = {
    "default": database_urls.database(
        env.str("DATABASE_URL", default=embedded.postgres_url())
    )
}
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# DATABASE_URL through PgBouncer in transaction mode: no server-side cursors
# (a cursor outlives the transaction its server connection is lent for).
# Prepared statements stay off, as Django leaves them (prepare_threshold
# None); the live games' journal binds on the client and prepares nothing.
PULKA_DB_TRANSACTION_POOLER = env.bool("PULKA_DB_TRANSACTION_POOLER", default=False)
DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = PULKA_DB_TRANSACTION_POOLER
# The database itself, not through a pooler in transaction mode, for what
# needs a session of its own: beat's advisory lock (config.beat). Unset
# (None): DATABASE_URL's.
DATABASE_DIRECT_URL = env.str("DATABASE_DIRECT_URL", default="")
PULKA_DIRECT_DATABASE = (
    database_urls.database(DATABASE_DIRECT_URL) if DATABASE_DIRECT_URL else None
)
# Each process takes its connections from a pool of its own (psycopg_pool,
# through Django's support), of at most PULKA_DB_POOL_SIZE connections
# whatever the burst (config.connections adds up every process's). A new
# PostgreSQL connection costs several milliseconds, more than a whole move,
# and the pool keeps them open between requests; Django's own persistent
# connections (CONN_MAX_AGE) kept one per thread, and under ASGI a request
# is a thread of its own, so they followed the burst of requests until
# PostgreSQL refused more. Django returns a connection to the pool where it
# used to close it, so CONN_MAX_AGE is 0 (Django refuses a pool otherwise).
# A caller finding every connection busy, or PostgreSQL refusing new ones,
# waits PULKA_DB_POOL_TIMEOUT seconds at most and fails as "unavailable"
# (config.middleware.DatabaseUnavailable answers 503).
PULKA_DB_POOL_SIZE = env.int("PULKA_DB_POOL_SIZE", default=connections.POOL_SIZE)
PULKA_DB_POOL_TIMEOUT = env.float(
    "PULKA_DB_POOL_TIMEOUT", default=connections.POOL_TIMEOUT
)
# PULKA_DB_POOL_SIZE=0: no pool, one connection kept by the process's one
# thread (Celery beat: scripts/run_platform.py says why).
if PULKA_DB_POOL_SIZE:
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": PULKA_DB_POOL_SIZE,
        "timeout": PULKA_DB_POOL_TIMEOUT,
    }
else:
    DATABASES["default"]["CONN_MAX_AGE"] = 60
# A streaming replica for the reads where a second's staleness is harmless
# (the leaderboards, players' public pages, the public API's players and
# games, finished games' records: common.replica), with a pool of its own
# as large as the primary's (on the replica's server); every other read and
# every write goes to "default". Unset: everything reads the primary. In
# tests it is "default" itself.
DATABASE_REPLICA_URL = env.str("DATABASE_REPLICA_URL", default="")
if DATABASE_REPLICA_URL:
    DATABASES["replica"] = {
        **database_urls.database(DATABASE_REPLICA_URL),
        "CONN_HEALTH_CHECKS": True,
        "CONN_MAX_AGE": DATABASES["default"]["CONN_MAX_AGE"],
        "DISABLE_SERVER_SIDE_CURSORS": PULKA_DB_TRANSACTION_POOLER,
        "TEST": {"MIRROR": "default"},
    }
    if PULKA_DB_POOL_SIZE:
        DATABASES["replica"].setdefault("OPTIONS", {})["pool"] = {
            **DATABASES["default"]["OPTIONS"]["pool"]
        }
    DATABASE_ROUTERS = ["common.replica.ReplicaRouter"]
# The live games' owners' async connections, per web process
# (games.live.journal), with the same timeout.
PULKA_JOURNAL_CONNECTIONS = connections.JOURNAL_SIZE
