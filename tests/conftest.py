"""Fixtures shared by the project's tests, and the servers they run on."""

import os

import pytest
from django.conf import settings
from django.db import connection
from hypothesis import settings as hypothesis_settings
from rest_framework.test import APIClient

from config.embedded import EmbeddedServices
from tests.factories import StaffUserFactory, UserFactory
from tests.processes import check_logs

# Property tests try a bounded number of examples, with no deadline (on a
# busy machine a slow example is not a broken property), drawn the same way
# on every run, so that a run's result does not depend on its luck.
# HYPOTHESIS_PROFILE=thorough draws ten times as many at random, for a
# change to the pairing or the rules; what it finds is kept in .hypothesis/.
hypothesis_settings.register_profile(
    "bounded", max_examples=100, deadline=None, derandomize=True
)
hypothesis_settings.register_profile("thorough", max_examples=1000, deadline=None)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "bounded"))

# Packages whose tests start server processes (uvicorn, Celery, Chromium,
# Caddy): marked `servers`, which `make test-fast` leaves out.
SERVER_PACKAGES = ("browser", "faults", "ha", "live", "outage", "platform", "routing")

# Of those, the packages whose tests share servers started once for the
# package (package-scoped fixtures): under pytest-xdist each runs whole on
# one worker (--dist loadgroup), so its servers start once rather than once
# on every worker that meets one of its tests.
SERVER_SHARING_PACKAGES = ("browser", "live")

# Modules long enough to be a group of their own, so that another worker can
# take them while their package runs elsewhere (starting its servers twice).
SEPARATE_GROUPS = {"live/test_tournaments.py": "live-tournaments"}


def pytest_configure(config):
    """The test process connects without the pool the site's processes use
    (config.connections): its tests run threads of their own that race on
    row locks, each holding its connection meanwhile, as many as a test
    needs. The servers it starts read the settings afresh and pool as
    deployed."""
    settings.DATABASES["default"]["OPTIONS"].pop("pool", None)


def pytest_collection_modifyitems(config, items):
    for item in items:
        package = item.path.parent.name
        if package in SERVER_PACKAGES:
            item.add_marker(pytest.mark.servers)
        if package in SERVER_SHARING_PACKAGES:
            group = SEPARATE_GROUPS.get(f"{package}/{item.path.name}", package)
            item.add_marker(pytest.mark.xdist_group(group))


def pytest_sessionstart(session):
    """Start this checkout's embedded PostgreSQL and Redis for the run (those
    not named by DATABASE_URL and REDIS_URL); they stop when it ends, unless
    another user of them (a `make run`) is still up."""
    services = EmbeddedServices().__enter__()
    session.config.add_cleanup(lambda: services.__exit__(None, None, None))


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test databases, whose sessions left open by threads
    (the executors of async consumers keep a connection each) are ended
    before the database is dropped: PostgreSQL would otherwise wait five
    seconds for them and then refuse the drop."""
    yield
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture
def user(db):
    return UserFactory()


@pytest.fixture
def staff_user(db):
    return StaffUserFactory()


@pytest.fixture
def api_client():
    return APIClient()


@pytest.fixture(autouse=True)
def no_unhandled_exception_in_started_processes():
    """After each test, the processes started (servers shared by a package
    too, the fault suite's platform) have logged no unhandled exception and
    no traceback but the expected ones (``tests.processes``): the test fails,
    named, with the lines."""
    yield
    check_logs()


@pytest.fixture(scope="session", autouse=True)
def no_unhandled_exception_at_the_last_stop():
    """What the servers shared by a package logged as they stopped, after
    the last test's own look."""
    yield
    check_logs()
