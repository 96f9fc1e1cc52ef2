"""The /health/ endpoint."""

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db


def test_health_reports_every_component(client):
    response = client.get("/health/")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"] == {"status": "ok", "vendor": connection.vendor}
    assert body["cache"]["status"] == "ok"
    assert body["broker"]["status"] == "ok"
    assert response.headers["Cache-Control"].startswith("max-age=0")


def test_health_names_the_backends_production_runs(client):
    body = client.get("/health/").json()

    assert body["database"]["vendor"] == "postgresql"
    assert body["cache"]["backend"] == "RedisCache"
    assert body["broker"]["transport"] in ("redis", "redis+socket")
    assert body["channel_layer"]["backend"] == "RedisPubSubChannelLayer"


def test_health_fails_when_the_database_does(client, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("database is down")

    monkeypatch.setattr("config.views.connection.cursor", broken)

    response = client.get("/health/")

    assert response.status_code == 503
    assert response.json()["status"] == "error"
    assert response.json()["database"]["status"] == "error"


def test_health_only_answers_get(client):
    assert client.post("/health/").status_code == 405
