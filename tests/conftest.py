"""Fixtures shared by the project's tests."""

import pytest
from rest_framework.test import APIClient

from tests.factories import StaffUserFactory, UserFactory


@pytest.fixture
def user(db):
    return UserFactory()


@pytest.fixture
def staff_user(db):
    return StaffUserFactory()


@pytest.fixture
def api_client():
    return APIClient()
