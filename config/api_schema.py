"""The API's schema lists every answer an operation can give: besides its
own, the refusals of ``common.api_errors`` (400 bad input, 401 not signed
in, 403 not allowed, 404 not found, 406 no acceptable answer, 409 refused
in the current state, 415 a body it cannot read, 429 throttled), each as an
``Error``. (405, a method an address does not take, belongs to no operation;
the ``Error`` code list has it.)"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema

from common.api_errors import ErrorSerializer

REFUSALS = {
    "400": "Bad input: `fields` says what is wrong with each field.",
    "401": "Not signed in (no session, or no valid token).",
    "403": "Signed in, but not allowed.",
    "404": "No such object.",
    "406": "The Accept header names nothing the API answers with (JSON).",
    "409": "Refused in the current state; nothing was changed.",
    "429": "Too many requests: wait and try again.",
}
# Only an operation that reads a body refuses one it cannot read.
BODY_REFUSALS = {
    "415": "The body's content type is not one the API reads (JSON, forms).",
}


class PulkaAutoSchema(AutoSchema):
    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction=direction)
        refusals = dict(REFUSALS)
        if self.method in ("POST", "PUT", "PATCH") and self.get_request_serializer():
            refusals.update(BODY_REFUSALS)
        for code, description in refusals.items():
            if code not in responses:
                response = self._get_response_for_code(ErrorSerializer, code)
                response["description"] = description
                responses[code] = response
        return responses
