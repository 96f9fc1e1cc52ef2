"""Passwords are stored with Argon2id at OWASP's minimum cost; one stored
before (PBKDF2, Django's default) still signs in and is stored again
under Argon2id."""

from __future__ import annotations

import pytest
from django.contrib.auth.hashers import identify_hasher, make_password
from django.test import Client
from django.test.utils import override_settings

from config.settings import base
from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

# The site's hashers, not the test settings' fast one.
site_hashers = override_settings(PASSWORD_HASHERS=base.PASSWORD_HASHERS)


@site_hashers
def test_a_new_password_is_stored_with_argon2id_at_owasps_minimum():
    stored = make_password("correct horse")
    assert stored.startswith("argon2$argon2id$v=19$m=19456,t=2,p=1$")
    assert identify_hasher(stored).verify("correct horse", stored)


@site_hashers
def test_a_password_stored_with_pbkdf2_signs_in_and_is_stored_again():
    user = UserFactory()
    user.password = make_password(DEFAULT_PASSWORD, hasher="pbkdf2_sha256")
    user.save(update_fields=["password"])

    response = Client().post(
        "/accounts/login/",
        {"username": user.username, "password": DEFAULT_PASSWORD},
        REMOTE_ADDR="10.0.0.9",
    )

    assert response.status_code == 302
    user.refresh_from_db()
    assert user.password.startswith("argon2$argon2id$v=19$m=19456,t=2,p=1$")
