"""What every API v1 answer shares: CORS for reading from any site, a conditional GET, and pages of a list; the
mark on the first API's answers that v1 replaces them; and what every request body shares: strict JSON types, and a
body that is not JSON refused like any other invalid request.

CORS by a few lines rather than django-cors-headers (not installed): the whole API is public, read-only and takes
no credentials, so the one rule is `Access-Control-Allow-Origin: *` on GET and HEAD answers (with the ETag exposed
to scripts); nothing to configure per origin, and no preflight to answer since no request needs one.
"""
import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from functools import wraps
from math import ceil
from typing import Annotated, Any, Generic, TypeVar

from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.middleware.http import ConditionalGetMiddleware
from django.urls import reverse
from django.utils.decorators import decorator_from_middleware
from ninja import Field, Schema
from ninja.errors import HttpError
from ninja.parser import Parser
from pydantic import BeforeValidator, ConfigDict
from pydantic import Field as PydanticField

from core.site import absolute

PAGE_SIZE = 50
MAX_PAGE_SIZE = 100
"""The most items one page of any list holds: an answer stays small whatever the tournament's size."""

MAX_ID = 2**31 - 1
"""The largest id or number a path or body may name (a database integer): past it, the request is refused (422)."""

T = TypeVar("T")
View = Callable[..., HttpResponse]


def cors(view: View) -> View:
    """Readable by a script on any site (GET and HEAD only; no cookies are ever needed)."""
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        if request.method in ("GET", "HEAD"):
            response["Access-Control-Allow-Origin"] = "*"
            response["Access-Control-Expose-Headers"] = "ETag"
        return response
    return wrapper


DEPRECATED_SINCE = datetime(2026, 11, 26, tzinfo=UTC)
"""When API v1 replaced the first JSON endpoints (`/api/tournaments/…`)."""


def superseded(successor: str) -> Callable[[View], View]:
    """An endpoint of the first JSON API, kept working: its answers say so (`Deprecation`, RFC 9745) and name the
    API v1 operation that replaces it (`Link: <…>; rel="successor-version"`, RFC 8288), by its URL name."""
    def decorate(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            response = view(request, *args, **kwargs)
            response["Deprecation"] = f"@{int(DEPRECATED_SINCE.timestamp())}"
            url = absolute(reverse(f"api-v1:{successor}", kwargs=kwargs))
            response["Link"] = f'<{url}>; rel="successor-version"'
            return response
        return wrapper
    return decorate


conditional = decorator_from_middleware(ConditionalGetMiddleware)
"""An ETag from the answer's content where the operation set none (the tournament's own set one from its results
version first, `ranking.live`), and 304 Not Modified when the reader has it already."""


def remembered(view: View) -> View:
    """The same answer for the life of the process (the schema and its page change only with the code): made once
    per address, then copied."""
    answers: dict[str, tuple[bytes, str]] = {}

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.path not in answers:
            response = view(request, *args, **kwargs)
            if response.status_code != 200 or len(answers) > 10:
                return response
            answers[request.path] = (response.content, response["Content-Type"])
        content, content_type = answers[request.path]
        return HttpResponse(content, content_type=content_type)
    return wrapper


class PageParams(Schema):
    page: int = Field(1, ge=1, description="The page wanted; past the last, the last.")
    page_size: int = Field(PAGE_SIZE, ge=1, le=MAX_PAGE_SIZE, description="Items a page.")


class Page(Schema, Generic[T]):
    count: int = Field(description="Items in the whole list.")
    page: int
    pages: int
    page_size: int
    next: str | None = Field(description="The next page's address, or null on the last.")
    previous: str | None = Field(description="The previous page's address, or null on the first.")
    results: list[T]


def page_slice(count: int, params: PageParams) -> tuple[int, int, slice]:
    """(page, pages, the items' slice) for a list of `count` items; a page past the last is the last."""
    pages = max(1, ceil(count / params.page_size))
    page = min(params.page, pages)
    return page, pages, slice((page - 1) * params.page_size, page * params.page_size)


def page_links(request: HttpRequest, page: int, pages: int) -> dict[str, str | None]:
    """`next` and `previous` as absolute addresses keeping every other query parameter."""
    def link(number: int) -> str:
        query = request.GET.copy()
        query["page"] = str(number)
        return absolute(f"{request.path}?{query.urlencode()}")
    return {"next": link(page + 1) if page < pages else None, "previous": link(page - 1) if page > 1 else None}


def paged(request: HttpRequest, items: QuerySet[Any] | Sequence[Any], params: PageParams,
          shape: Callable[[Any], Any] = lambda item: item) -> dict[str, Any]:
    """One page of `items` (a query is counted and sliced in the database), each item passed through `shape`."""
    count = items.count() if isinstance(items, QuerySet) else len(items)
    page, pages, part = page_slice(count, params)
    return {"count": count, "page": page, "pages": pages, "page_size": params.page_size,
            **page_links(request, page, pages), "results": [shape(item) for item in items[part]]}


def _whole(value: Any) -> Any:
    """A JSON number with nothing after the point as the integer it is (JSON Schema counts 7.0 an integer); a
    boolean, a string or 7.5 stays what it is, and strict typing refuses it."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


Id = Annotated[int, PydanticField(ge=1, le=MAX_ID), BeforeValidator(_whole)]
"""An id in a request body: a whole JSON number from 1 to MAX_ID."""


class Body(Schema):
    """A request body, typed as JSON types it: nothing coerced (`true` is not the id 1, nor `"7"` the id 7)."""
    model_config = ConfigDict(strict=True)


class FieldProblem(Schema):
    """One problem of a request, as pydantic words it."""
    type: str = Field(description="What is wrong: json_invalid, missing, int_type, too_long, …")
    loc: list[str | int] = Field(description="Where: body, query or path, then the field's path.")
    msg: str


class UnreadableBody(ValueError):
    """A request body that is not JSON (the message says why)."""


class JsonBodies(Parser):
    """ninja's JSON parser, keeping why a body cannot be read: ninja turns any failure of its parser into an
    undeclared 400 "Cannot parse request body"; `http_error` answers it as every other invalid request is answered."""

    def parse_body(self, request: HttpRequest) -> Any:
        try:
            return json.loads(request.body)
        except (ValueError, RecursionError) as error:  # not UTF-8 or not JSON; nested too deep
            raise UnreadableBody(str(error)) from error


def http_error(error: HttpError) -> tuple[int, dict[str, Any]]:
    """(status, JSON) of a refusal: `{"detail": "…"}`, or for a body that is not JSON 422 with one problem, the
    shape pydantic gives every other invalid request (ninja raises the refusal from our parser's error)."""
    if isinstance(error.__cause__, UnreadableBody):
        return 422, {"detail": [{"type": "json_invalid", "loc": ["body"],
                                 "msg": f"The body is not JSON: {error.__cause__}"}]}
    return error.status_code, {"detail": str(error)}
