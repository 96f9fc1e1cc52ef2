"""The API's schema lists every answer an operation can give: besides its
own, the refusals of ``config.api_errors`` (400 bad input, 401 not signed
in, 403 not allowed, 404 not found, 409 refused in the current state, 429
throttled), each as an ``Error``."""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema

from config.api_errors import ErrorSerializer

REFUSALS = {
    "400": "Bad input: `fields` says what is wrong with each field.",
    "401": "Not signed in (no session, or no valid token).",
    "403": "Signed in, but not allowed.",
    "404": "No such object.",
    "409": "Refused in the current state; nothing was changed.",
    "429": "Too many requests: wait and try again.",
}


class PulkaAutoSchema(AutoSchema):
    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction=direction)
        for code, description in REFUSALS.items():
            if code not in responses:
                response = self._get_response_for_code(ErrorSerializer, code)
                response["description"] = description
                responses[code] = response
        return responses
