"""The type of the JSON data the engine reads and writes (records, views,
events): what a JSON object's values are is each format's own business
(RECORD.md, the view), so their type is left open."""

from __future__ import annotations

from typing import Any, TypeAlias

JsonObject: TypeAlias = dict[str, Any]
