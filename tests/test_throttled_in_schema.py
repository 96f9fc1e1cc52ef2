"""Every operation whose view has throttles lists ``throttled`` among the
codes of its 429 answer, those that declare a 429 of their own too."""

from __future__ import annotations

import re

import pytest
from django.urls import resolve
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def codes_of(schema: dict, response: dict) -> set[str]:
    body = response["content"]["application/json"]["schema"]
    component = schema["components"]["schemas"][body["$ref"].rsplit("/", 1)[1]]
    code = component["properties"]["code"]
    if "enum" in code:
        return set(code["enum"])
    (ref,) = [part["$ref"] for part in code["allOf"]]
    return set(schema["components"]["schemas"][ref.rsplit("/", 1)[1]]["enum"])


def test_every_throttled_operation_lists_throttled_in_its_429():
    schema = APIClient().get("/api/v1/schema/", {"format": "json"}).json()
    checked = 0
    for path, operations in schema["paths"].items():
        view = resolve(re.sub(r"\{[^}]+\}", "1", path)).func.cls()
        if not view.get_throttles():
            continue
        for method, operation in operations.items():
            assert "429" in operation["responses"], (method, path)
            assert "throttled" in codes_of(schema, operation["responses"]["429"]), (
                method,
                path,
            )
            checked += 1
    assert checked > 30
