"""Fixtures shared by the project's tests, and the servers they run on."""

import pytest
from rest_framework.test import APIClient

from config.embedded import EmbeddedServices
from tests.factories import StaffUserFactory, UserFactory


def pytest_sessionstart(session):
    """Start this checkout's embedded PostgreSQL and Redis for the run (those
    not named by DATABASE_URL and REDIS_URL); they stop when it ends, unless
    another user of them (a `make run`) is still up."""
    services = EmbeddedServices().__enter__()
    session.config.add_cleanup(lambda: services.__exit__(None, None, None))


@pytest.fixture
def user(db):
    return UserFactory()


@pytest.fixture
def staff_user(db):
    return StaffUserFactory()


@pytest.fixture
def api_client():
    return APIClient()
