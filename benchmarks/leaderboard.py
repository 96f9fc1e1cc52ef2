"""Leaderboard and rank queries with a million rated players, in PostgreSQL
through the site's selectors, next to a Redis sorted set holding the same
ratings.

    python benchmarks/leaderboard.py [--players N] [--requests R]
                                     [--redis-db D]

What it does, all on this machine:

1. Starts an embedded PostgreSQL and Redis of its own in a fresh directory
   under /tmp (``servers.PrivateServices``: the servers ``make run`` starts,
   on Unix sockets, no TCP port; no other server is touched), creates the
   database ``pulka_bench_ratings`` there and migrates it.
2. Loads N users (default 1,000,000) and one ``joker`` rating each with two
   INSERT ... SELECT over ``generate_series`` (ratings roughly normal around
   1500, standard deviation 200, so many players share a rating), counts
   them per rating value with ``ratings.services.rating_counts_rebuild``,
   then runs VACUUM ANALYZE, as autovacuum would.
3. Loads the same (user, rating) pairs into a Redis sorted set in database D
   (default 15) of the private Redis, with ZADD in pipelines of 10,000.
4. Prints the plans (EXPLAIN ANALYZE) of the exact statements the selectors
   sent, then times R requests of each query (default 1,000, after 50 not
   timed), one at a time from this process:
   - the top-100 page: ``ratings.selectors.leaderboard("joker", limit=100)``
     (ratings joined with users and profiles, ranked, as the page shows it)
     against ZREVRANGE 0 99 WITHSCORES (ids and scores only);
   - a random player's rank: ``ratings.selectors.player_rank(...)`` (the
     player's rating, then the sum of the counts per rating value above it)
     against ZREVRANK (a position: equal ratings get different ranks) and
     ZSCORE + ZCOUNT (equal ratings share a rank, like the selector); and,
     for comparison, the rank the direct way the site does not use: the
     player's rating, then COUNT(*) of the ratings above it, a range of the
     ``rating_leaderboard`` index that grows with the rank.
5. Prints p50 and p99 of each and the verdict against the target: a
   player's rank in under 10 ms at the 99th percentile.

Both servers are stopped and their directory removed at the end.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from servers import BASE_DIR, PrivateServices  # noqa: E402

from common.redis_roles import celery_url, connect  # noqa: E402

BENCH_DATABASE = "pulka_bench_ratings"
CATEGORY = "joker"
REDIS_KEY = "pulka-bench:ratings:joker"
WARMUP = 50
PIPELINE = 10_000
TARGET_RANK_P99_MS = 10.0


def setup_django(database_url: str, redis_url: str) -> None:
    # Both addresses set, so that nothing in Django reaches for the
    # checkout's own servers.
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings.dev",
            "DEBUG": "False",
            "LOG_LEVEL": "WARNING",
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "CELERY_BROKER_URL": celery_url(redis_url),
        }
    )
    sys.path.insert(0, str(BASE_DIR))
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def load_postgresql(players: int) -> None:
    from django.db import connection

    from ratings.services import rating_counts_rebuild

    with connection.cursor() as cursor:
        cursor.execute("SELECT setseed(0.42)")
        cursor.execute(
            """
            INSERT INTO auth_user (password, is_superuser, username, first_name,
                                   last_name, email, is_staff, is_active,
                                   date_joined)
            SELECT '!', false, 'bench' || g, '', '', '', false, true, now()
            FROM generate_series(1, %s) AS g
            """,
            [players],
        )
        # Box-Muller: a normal distribution from two uniform ones.
        cursor.execute(
            """
            INSERT INTO ratings_rating (user_id, category, rating, games, peak,
                                        updated_at)
            SELECT id, %s, r, 1 + floor(random() * 400)::int,
                   r + floor(random() * 60)::int, now()
            FROM (
                SELECT id, greatest(600, least(2900, round(
                    1500 + 200 * sqrt(-2 * ln(1 - random()))
                               * cos(2 * pi() * random())
                )))::int AS r
                FROM auth_user
            ) AS drawn
            """,
            [CATEGORY],
        )
    rating_counts_rebuild()
    with connection.cursor() as cursor:
        for table in ("auth_user", "ratings_rating", "ratings_ratingcount"):
            cursor.execute(f"VACUUM ANALYZE {table}")


def load_redis(url: str) -> int:
    from django.db import connection

    client = connect(url)
    client.delete(REDIS_KEY)
    loaded = 0
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT user_id, rating FROM ratings_rating WHERE category = %s",
            [CATEGORY],
        )
        while rows := cursor.fetchmany(PIPELINE):
            pipe = client.pipeline(transaction=False)
            pipe.zadd(REDIS_KEY, {str(user_id): rating for user_id, rating in rows})
            pipe.execute()
            loaded += len(rows)
    client.close()
    return loaded


def timed(call, requests: int) -> list[float]:
    """Milliseconds of each of ``requests`` calls, after a warm-up."""
    for _ in range(WARMUP):
        call()
    out = []
    for _ in range(requests):
        start = time.perf_counter()
        call()
        out.append((time.perf_counter() - start) * 1000)
    return out


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[round(q) - 1]


def explain(sql: str) -> list[str]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) {sql}")
        return [row[0] for row in cursor.fetchall()]


def statements_of(call) -> list[str]:
    """The SQL statements ``call`` sends, with their parameters in place."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        call()
    return [query["sql"] for query in captured.captured_queries]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument(
        "--redis-db", type=int, default=15, help="database of the private Redis"
    )
    args = parser.parse_args()
    if not 1000 <= args.players <= 5_000_000:
        sys.exit("--players is between 1,000 and 5,000,000")
    if not 100 <= args.requests <= 100_000:
        sys.exit("--requests is between 100 and 100,000")
    with PrivateServices() as services:
        run(args, services)


def run(args, services) -> None:
    redis_url = services.redis_url(args.redis_db)
    started = time.perf_counter()
    setup_django(services.create_database(BENCH_DATABASE), redis_url)
    migrated = time.perf_counter()
    load_postgresql(args.players)
    loaded = time.perf_counter()
    in_redis = load_redis(redis_url)
    zadded = time.perf_counter()
    print(
        f"players: {args.players:,} in PostgreSQL ({loaded - migrated:.1f} s "
        f"with VACUUM ANALYZE; database and migrations {migrated - started:.1f} s),"
        f" {in_redis:,} in Redis ({zadded - loaded:.1f} s)"
    )

    from django.db import connection

    from ratings import selectors
    from ratings.models import Rating

    with connection.cursor() as cursor:
        cursor.execute("SET statement_timeout = '5s'")
    user_ids = list(
        Rating.objects.filter(category=CATEGORY).values_list("user_id", flat=True)
    )
    rng = random.Random(7)
    client = connect(redis_url)

    def top_sql():
        return selectors.leaderboard(CATEGORY, limit=100)

    def rank_sql():
        return selectors.player_rank(user_id=rng.choice(user_ids), category=CATEGORY)

    def rank_by_count():
        user_id = rng.choice(user_ids)
        rating = Rating.objects.get(user_id=user_id, category=CATEGORY).rating
        return Rating.objects.filter(category=CATEGORY, rating__gt=rating).count() + 1

    def top_redis():
        return client.zrevrange(REDIS_KEY, 0, 99, withscores=True)

    def rank_redis():
        return client.zrevrank(REDIS_KEY, str(rng.choice(user_ids)))

    def rank_redis_shared():
        score = client.zscore(REDIS_KEY, str(rng.choice(user_ids)))
        return client.zcount(REDIS_KEY, f"({score}", "+inf") + 1

    # The plans of what the selectors send, for the player at the bottom
    # (the most ratings above), and of the direct count for the same player.
    bottom = Rating.objects.filter(category=CATEGORY).order_by("rating", "id")[0]
    rank_statements = statements_of(
        lambda: selectors.player_rank(user_id=bottom.user_id, category=CATEGORY)
    )
    direct = Rating.objects.filter(category=CATEGORY, rating__gt=bottom.rating)
    plans = {
        "top-100 page": statements_of(top_sql)[0],
        "player rank, the player's rating": rank_statements[0],
        "player rank, the counts above it": rank_statements[-1],
        "direct count, not used (the same player)": statements_of(direct.count)[0],
    }
    for title, sql in plans.items():
        print(f"\nEXPLAIN ANALYZE, {title}:\n  {sql}")
        for line in explain(sql):
            print(f"    {line}")

    # Every answer is checked once against the other store.
    some = rng.choice(user_ids)
    shared = selectors.player_rank(user_id=some, category=CATEGORY)
    score = client.zscore(REDIS_KEY, str(some))
    assert shared == client.zcount(REDIS_KEY, f"({score}", "+inf") + 1
    assert [s.rating for s in top_sql()] == [int(s) for _, s in top_redis()]
    assert selectors.player_rank(user_id=bottom.user_id, category=CATEGORY) == (
        direct.count() + 1
    )

    cases = [
        ("top-100 page", "PostgreSQL  selectors.leaderboard", top_sql),
        ("top-100 page", "Redis       ZREVRANGE 0 99 WITHSCORES", top_redis),
        ("player rank", "PostgreSQL  selectors.player_rank", rank_sql),
        ("player rank", "Redis       ZREVRANK", rank_redis),
        ("player rank", "Redis       ZSCORE + ZCOUNT", rank_redis_shared),
        ("player rank", "PostgreSQL  direct COUNT(*), not used", rank_by_count),
    ]
    rows = [(query, how, timed(call, args.requests)) for query, how, call in cases]

    print(f"\n{args.requests:,} requests each, one at a time, milliseconds:\n")
    print(f"{'query':<14}{'how':<40}{'p50':>8}{'p99':>8}{'max':>8}")
    print("-" * 78)
    for query, how, ms in rows:
        print(
            f"{query:<14}{how:<40}{percentile(ms, 50):>8.2f}"
            f"{percentile(ms, 99):>8.2f}{max(ms):>8.2f}"
        )

    rank_p99 = percentile(rows[2][2], 99)
    verdict = "PASS" if rank_p99 < TARGET_RANK_P99_MS else "FAIL"
    print(
        f"\nverdict: a player's rank under {TARGET_RANK_P99_MS:.0f} ms at p99 in "
        f"PostgreSQL: {rank_p99:.2f} ms, {verdict}."
    )

    client.close()
    connection.close()


if __name__ == "__main__":
    main()
