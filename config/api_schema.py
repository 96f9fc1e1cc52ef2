"""The API's schema lists every answer an operation can give: besides its
own, the refusals of ``common.api_errors`` (400 bad input, 401 not signed
in, 403 not allowed, 404 not found, 406 no acceptable answer, 409 refused
in the current state, 415 a body it cannot read, 429 throttled), each as an
``Error``. (405, a method an address does not take, belongs to no operation;
the ``Error`` code list has it.)

A view with throttles can answer 429 ``throttled`` whatever else it
declares: an operation that declares a 429 of its own (``refusal_serializer``
codes such as ``too_many_invitations``) gets ``throttled`` added to it here,
in one place, keyed on the view's throttle classes."""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse

from common.api_errors import ErrorSerializer, refusal_serializer

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
    def _get_response_for_code(self, serializer, status_code, *args, **kwargs):
        if str(status_code) == "429" and self.view.get_throttles():
            serializer = _with_throttled(serializer)
        return super()._get_response_for_code(serializer, status_code, *args, **kwargs)

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


def _with_throttled(response):
    """A declared 429 refusal, with ``throttled`` among its codes."""
    if isinstance(response, OpenApiResponse):
        return OpenApiResponse(
            _with_throttled(response.response),
            description=response.description,
            examples=response.examples,
        )
    codes = getattr(response, "codes", None)
    if codes is None or "throttled" in codes:
        return response
    return refusal_serializer(response.__name__, [*codes, "throttled"])
