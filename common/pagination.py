"""Pages of the API's lists.

``page`` and ``page_size`` must be positive whole numbers when given: DRF
on its own quietly answers the first page (or the default size) for
anything else, which hides a client's mistake. A page past the last is a
404.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from django.db.models import QuerySet
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.views import APIView

_WHOLE = re.compile(r"[1-9][0-9]*")


class Pagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 100

    def paginate_queryset(
        self,
        queryset: QuerySet[Any] | Sequence[Any],
        request: Request,
        view: APIView | None = None,
    ) -> list[Any] | None:
        for name in (self.page_query_param, self.page_size_query_param):
            values = request.query_params.getlist(name)
            if values and (len(values) > 1 or not _WHOLE.fullmatch(values[0])):
                raise ValidationError({name: ["one positive whole number"]})
        return super().paginate_queryset(queryset, request, view)

    def get_schema_operation_parameters(self, view: APIView) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"]["minimum"] = 1
        return parameters
