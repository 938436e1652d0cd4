"""The public pages read from a PostgreSQL read replica, when there is one (`DATABASE_REPLICA_URL`).

Phones and venue screens polling the public pages are most of the reads; a replica takes them off the
primary. Everything else reads the primary: the organiser's and judges' pages, the player's own page (where a
phone reports its result), every write, and every page asked for by somebody who wrote a moment ago, so that
nobody misses their own change while the replica catches up:

- a request that is not a GET or HEAD (a result, a report, a form) is answered with a short-lived cookie
  (`WROTE_COOKIE`, `READ_OWN_WRITES_SECONDS`); while the browser holds it, its requests read the primary;
- a signed-in visitor (the session cookie) always reads the primary: organisers see their own event as it is.

`ReplicaRouter` sends a read to the replica only inside a request `ReadReplicaMiddleware` allowed, and only
while the replica is configured: without `DATABASE_REPLICA_URL` both are no-ops.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable

from django.conf import settings
from django.db import connections
from django.http import HttpRequest, HttpResponse

REPLICA = "replica"
WROTE_COOKIE = "swiss_wrote"
# The URL namespaces whose GETs may read the replica: the public pages (urls/public.py), read-only.
REPLICA_NAMESPACES = frozenset({"public"})
_SAFE = ("GET", "HEAD")

_reading_replica: contextvars.ContextVar[bool] = contextvars.ContextVar("reading_replica", default=False)


def replica_configured() -> bool:
    return REPLICA in connections.settings


def reads_replica() -> bool:
    """Whether this request's reads go to the replica."""
    return _reading_replica.get()


class ReplicaRouter:
    """Reads of a request `ReadReplicaMiddleware` allowed go to the replica; everything else to the primary."""

    def db_for_read(self, model, **hints) -> str | None:
        return REPLICA if _reading_replica.get() else None

    def db_for_write(self, model, **hints) -> str:
        return "default"

    def allow_relation(self, obj1, obj2, **hints) -> bool:
        return True  # the replica is a copy of the primary: its rows are the primary's

    def allow_migrate(self, db: str, app_label: str, **hints) -> bool | None:
        return False if db == REPLICA else None  # the replica follows the primary; nothing migrates it


def wrote_recently(request: HttpRequest) -> bool:
    """This browser wrote in the last READ_OWN_WRITES_SECONDS (or is signed in): it reads the primary."""
    return WROTE_COOKIE in request.COOKIES or settings.SESSION_COOKIE_NAME in request.COOKIES


class ReadReplicaMiddleware:
    """Decides for each request whether its reads may go to the replica, and marks a browser that wrote."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = _reading_replica.set(False)
        try:
            response = self.get_response(request)
        finally:
            _reading_replica.reset(token)
        if request.method not in _SAFE:
            response.set_cookie(
                WROTE_COOKIE,
                "1",
                max_age=settings.READ_OWN_WRITES_SECONDS,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs) -> None:
        match = request.resolver_match
        if (
            request.method in _SAFE
            and match is not None
            and match.namespace in REPLICA_NAMESPACES
            and not wrote_recently(request)
            and replica_configured()
        ):
            _reading_replica.set(True)
