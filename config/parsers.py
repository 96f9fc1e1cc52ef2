"""The API's one parser of request bodies: JSON."""

from __future__ import annotations

from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, with a body nested deeper than the standard
    library's parser can follow refused as any other body that is not JSON:
    a 400 ``parse_error``. The parser recurses once per bracket, and a few
    kilobytes of ``[`` run it out of stack (a RecursionError, otherwise a
    500)."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deep") from None
