"""DATABASE_URL with several hosts (config.database_urls), the pools'
steady reconnection (config.connections), and the replica router
(common.replica) in the test process; the router against a real replica is
tests/ha/test_replica_reads.py."""

from __future__ import annotations

from unittest import mock

import pytest
from django.contrib.sessions.models import Session
from django.db import connections, transaction
from django.http import Http404

from common.replica import ReplicaRouter, reading_replica, replica_reads
from config.database_urls import database, hosts_and_ports
from ratings.models import Rating
from tests.processes import database_url


@pytest.mark.parametrize(
    ("url", "host", "port"),
    [
        ("postgres://u@db1:5432,db2:5433/pulka", "db1,db2", "5432,5433"),
        # A host without a port has 5432 beside one that has one.
        ("postgres://u@db1:6000,db2/pulka", "db1,db2", "6000,5432"),
        ("postgres://u@db1,db2:6000/pulka", "db1,db2", "5432,6000"),
        ("postgres://u@db1,db2/pulka", "db1,db2", ""),
        # libpq takes IPv6 addresses without their brackets.
        ("postgres://u@[::1]:5432,[::2]:5433/pulka", "::1,::2", "5432,5433"),
        # One host: django-environ's own parse.
        ("postgres://u@db1:5433/pulka", "db1", 5433),
    ],
)
def test_a_multi_host_url_pairs_each_host_with_its_port(url, host, port):
    config = database(url)
    assert (config["HOST"], config["PORT"]) == (host, port)
    assert config["NAME"] == "pulka" and config["USER"] == "u"


def test_the_query_becomes_options_and_a_socket_url_has_no_hosts():
    config = database(
        "postgres://u:p%40ss@db1:5432,db2:5432/pulka"
        "?target_session_attrs=read-write&connect_timeout=2"
    )
    assert config["PASSWORD"] == "p@ss"
    assert config["OPTIONS"] == {
        "target_session_attrs": "read-write",
        "connect_timeout": 2,
    }
    assert hosts_and_ports("postgres://postgres@/pulka?host=%2Ftmp%2Fpg") == []


@pytest.mark.parametrize(
    "url",
    [
        "postgres://u@db1:5432,db2:5433/pulka?target_session_attrs=read-write",
        "postgres://u@[::1]:5432,db2:5432/pulka?connect_timeout=2",
        "postgres://u@db1:5433/pulka",
    ],
)
def test_the_processes_a_test_starts_get_the_same_hosts(url):
    """tests.processes.database_url, the test database's URL for the
    servers a test starts, keeps every host, port and connection option."""
    config = database(url)
    again = database(database_url(config))
    for key in ("HOST", "PORT", "NAME", "USER"):
        assert str(again[key]) == str(config[key])
    assert again.get("OPTIONS") == config.get("OPTIONS")


def test_psycopg_is_given_every_host_and_port():
    """What Django hands psycopg (and so libpq) for a multi-host URL."""
    from django.db.backends.postgresql.base import DatabaseWrapper

    config = database(
        "postgres://u@db1:5432,db2:5433/pulka?target_session_attrs=read-write"
    )
    wrapper = DatabaseWrapper({**connections["default"].settings_dict, **config})
    params = wrapper.get_connection_params()
    assert (params["host"], params["port"]) == ("db1,db2", "5432,5433")
    assert params["target_session_attrs"] == "read-write"


def test_the_pools_try_a_lost_connection_again_without_backoff():
    """Set when Django starts (config.apps): psycopg_pool's constants."""
    from psycopg_pool.base import AttemptWithBackoff

    from config.connections import RECONNECT_SECONDS

    attempt = AttemptWithBackoff(timeout=300)
    delays = []
    for now in range(5):
        attempt.update_delay(float(now))
        delays.append(attempt.delay)
    assert all(abs(d - RECONNECT_SECONDS) <= RECONNECT_SECONDS * 0.1 for d in delays)


@pytest.fixture
def with_replica():
    """A "replica" among the databases, as DATABASE_REPLICA_URL adds it."""
    replica = {**connections["default"].settings_dict}
    with mock.patch.dict(connections.settings, {"replica": replica}):
        yield ReplicaRouter()
        for connection in connections.all(initialized_only=True):
            if connection.alias == "replica":
                connection.close()
                del connections["replica"]


def test_reads_go_to_the_replica_only_inside_replica_reads(
    with_replica, transactional_db
):
    router = with_replica
    assert router.db_for_read(Rating) == "default"
    with reading_replica():
        assert router.db_for_read(Rating) == "replica"
        # The session and the lockouts are read right after being written.
        assert router.db_for_read(Session) == "default"
        # In a transaction on the primary: it may have written what it reads.
        with transaction.atomic():
            assert router.db_for_read(Rating) == "default"
        assert router.db_for_write(Rating) == "default"
    assert router.allow_migrate("replica", "ratings") is False
    assert router.allow_migrate("default", "ratings") is True


def test_no_replica_configured_reads_the_primary():
    with reading_replica():
        assert ReplicaRouter().db_for_read(Rating) == "default"


def test_a_view_answering_404_on_the_replica_is_asked_again_on_the_primary(
    with_replica,
):
    seen = []

    @replica_reads
    def view(request):
        on_replica = with_replica.db_for_read(Rating) == "replica"
        seen.append(on_replica)
        if on_replica:
            raise Http404("not there yet")
        return "found"

    assert view(mock.Mock(user=mock.Mock(is_authenticated=True))) == "found"
    assert seen == [True, False]
