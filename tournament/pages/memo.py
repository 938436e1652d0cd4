"""The public pages made once per event version and kept (a fast path: tournament/infra/fast/).

A public page is a function of the event's version, the page and its parameters: every change the
pages show (pairings, results, the round clock, settings) bumps `Event.version` through
`services.changed`. So a page is rendered once per version and then served from Django's cache (local
memory per process, or Redis shared by every app server when REDIS_URL is set); the HTTP answer around
it (ETags, 304s, cache headers) is views/public_cache.py's.

What is kept here: the event row as a poll reads it (`polled`, the rest once per version: `load_rest`),
any value made for a version (`cached`, computed by one request at a time: `single_flight`), a table's rows
rendered once (`row_index`, which a search picks from), a page's rendering (`rendering`, its bodies kept
apart from its head) and, at a busy event, the last rendering standing in for a newer one a while (`may_lag`).

Renderings are made without the request, so they hold nothing personal (no CSRF token, no user) and
can be shared by everybody; they are stored gzipped as well, because a 2048-player pairings list is
a quarter of a megabyte of HTML on venue Wi-Fi.
"""

import copy
import datetime as dt
import gzip
import hashlib
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.db import connections, router
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from tournament.models import Event
from tournament.services import standings
from tournament.text import game_words, name_search

CACHE_SECONDS = 6 * 3600
GZIP_MIN_BYTES = 1024
# zlib's own default: a 2048-player pairings page (570 kB) compresses in 4 ms to 41 kB; level 9 (gzip's
# default) takes 12 ms, every time a busy page is made again, for 38 kB.
GZIP_LEVEL = 6
# What a page depends on besides the event: the templates and assets that shape it.
_BUILD_FILES = (
    "templates/base.html",
    "templates/_language.html",
    "locale/*/LC_MESSAGES/django.po",
    "templates/public/*.html",
    "templates/player/*.html",  # the player's page: its ETag and its frame (pages/player.py) are keyed on this too
    "static/css/*.css",
    "static/js/*.js",
)


def _build_tag() -> str:
    """Changes when the templates or assets do, so a deploy never answers 304 for an old page.

    Derived from file contents (not a start time), so every app server behind the proxy agrees.
    """
    digest = hashlib.blake2b(digest_size=6)
    for pattern in _BUILD_FILES:
        for path in sorted(settings.BASE_DIR.glob(pattern)):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


BUILD = _build_tag()


# What a poll reads: the row's identity and change marker. The rest loads only to render a page.
# In the model's field order, as `Model.from_db` expects. The name too: a venue's screen names its sections
# (and is validated on them) without reading their rows (pages/venue.py).
_POLL_FIELDS = tuple(
    f.attname
    for f in Event._meta.concrete_fields
    if f.attname
    in {
        "id",
        "slug",
        "name",
        "public",
        "language",
        "time_zone",
        "preset",
        "created_at",
        "parent_id",
        "position",
        "joined_partner_id",
    }
    | Event.CHANGE_FIELDS
)
# The event at the address, and with it in the same query its sections' rows (an event with sections: its
# venue pages show them all) and its parent's `public` (a section: hidden with the event it belongs to).
_TABLE = Event._meta.db_table
_POLL_SQL = (
    f"SELECT {', '.join(f'e.{f}' for f in _POLL_FIELDS)}, "  # noqa: S608 (names from the model)
    f"(SELECT p.public FROM {_TABLE} p WHERE p.id = e.parent_id) "
    f"FROM {_TABLE} e WHERE e.slug = %s OR e.parent_id IN (SELECT x.id FROM {_TABLE} x WHERE x.slug = %s)"
)
# Whether the event is shown, as the primary says it (a page read from the replica asks it there).
_VISIBLE_SQL = (
    f"SELECT e.public AND COALESCE((SELECT p.public FROM {_TABLE} p WHERE p.id = e.parent_id), TRUE) "  # noqa: S608
    f"FROM {_TABLE} e WHERE e.id = %s"
)


def polled(slug: str) -> tuple[Event | None, list[Event]]:
    """The event at `slug` as a page polled every 15 s reads it, in one small query, and its sections (an event
    with sections: its venue pages show them all; docs/sections.md, "Public pages").

    A section is not public while its event is hidden; whether it is shown is the primary's word, not the replica's
    (which may lag behind an event hidden a moment ago). The event's other fields are deferred until a page is
    rendered (`load_rest`)."""
    db = connections[router.db_for_read(Event)]  # the read replica for a phone, when there is one (routers.py)
    with db.cursor() as cursor:
        cursor.execute(_POLL_SQL, [slug, slug])
        rows = cursor.fetchall()
    event, sections = None, []
    for row in rows:
        # SQLite hands a raw cursor naive datetimes (stored in UTC); PostgreSQL aware ones.
        *row, parent_public = (
            v.replace(tzinfo=dt.UTC) if isinstance(v, dt.datetime) and v.tzinfo is None else v for v in row
        )
        polled = Event.from_db(db.alias, _POLL_FIELDS, row)
        if polled.slug == slug:
            event = polled
            event.public = bool(event.public) and parent_public in (None, True, 1)
        else:
            sections.append(polled)
    if event is not None and event.public and db.alias != "default":
        # The replica may lag behind an organiser who has just hidden the event (or its parent): whether it is
        # shown is the primary's answer, one query by its key; what the page shows is read from the replica.
        with connections["default"].cursor() as cursor:
            cursor.execute(_VISIBLE_SQL, [event.pk])
            row = cursor.fetchone()
        event.public = bool(row and row[0])
    return event, sorted(sections, key=lambda s: (s.position, s.pk))


def load_rest(event: Event) -> None:
    """The fields a poll did not read, read once per event version (every change the pages show makes a new one)."""
    deferred = event.get_deferred_fields()
    if not deferred:
        return

    def read() -> dict:
        event.refresh_from_db(fields=deferred)
        return {name: getattr(event, name) for name in deferred}

    for name, value in cached(f"event-row:{event_key(event)}", read).items():
        setattr(event, name, value)


def venue_view(event: Event, sections: list[Event]) -> tuple[Event, str]:
    """The event as its venue pages (home, search: they show every section) are cached and validated,
    and what names the versions they show, for `public_response`'s parameters.

    Its version is the sum of the event's and those sections' versions, which any change to any of them moves
    on; the names of the versions (each section's id and version) keep apart two states whose sums agree (a
    section removed). A result in one section bumps that section alone: its own pages and every other
    section's stay cached, and the venue's pages re-make only that section's part.
    """
    shown = copy.copy(event)
    shown.version = event.version + sum(s.version for s in sections)
    shown.updated_at = max([event.updated_at, *(s.updated_at for s in sections)])
    return shown, " ".join(f"{s.pk}.{s.version}" for s in sections)


def event_key(event: Event) -> str:
    """Names one version of one event; the creation time keeps a reused primary key (SQLite) apart."""
    return f"{event_identity(event)}.{event.version}"


def event_identity(event: Event) -> str:
    """The event whatever its version: its key, and its creation time (a reused primary key stays apart)."""
    return f"{event.pk}.{int(event.created_at.timestamp() * 1_000_000)}"


# Values read by every request of a busy round (a phone's standing among 2048): kept unpickled in this process
# too, by `cached(..., keep=True)`. Their keys name what they are made of, so a key's value never changes.
_kept: "OrderedDict[str, Any]" = OrderedDict()
KEPT_VALUES = 64


def cached(key: str, make: Callable[[], Any], keep: bool = False) -> Any:
    """`make()` computed once per key (keys carry the event version, so they never go stale).

    When a result comes in, every phone's next poll misses at once; only one of them computes.
    `keep=True`: also kept in this process, so that reading it costs no unpickling (a 2048-entry dict read by
    every phone's request); the callers of such values only read them.
    """
    if keep:
        value = _kept.get(key)
        if value is None:
            value = cached(key, make)
            _kept[key] = value
            while len(_kept) > KEPT_VALUES:
                _kept.popitem(last=False)
        return value
    value = cache.get(key)
    if value is None:
        with single_flight(key):
            value = cache.get(key)
            if value is None:
                value = make()
                cache.set(key, value, CACHE_SECONDS)
    return value


_locks: "weakref.WeakValueDictionary[str, threading.Lock]" = weakref.WeakValueDictionary()
_locks_guard = threading.Lock()
LOCK_SECONDS = 30


@contextmanager
def single_flight(key: str, wait: bool = True):
    """Run the block for `key` once at a time: in this process (a lock) and across app servers (a cache key).

    Others wait and then find the result cached. A holder that dies frees the shared key after
    LOCK_SECONDS; a waiter that gives up after that long computes anyway rather than fail the page.
    With `wait=False` a request that finds the block taken does not wait: it gets False and runs the
    block without computing (it has something else to serve meanwhile).
    """
    with _locks_guard:
        lock = _locks.get(key)
        if lock is None:
            lock = _locks[key] = threading.Lock()
    if not lock.acquire(blocking=wait):
        yield False
        return
    try:
        shared = f"lock:{key}"
        held = cache.add(shared, 1, LOCK_SECONDS)
        if not held and not wait:
            yield False
            return
        deadline = time.monotonic() + LOCK_SECONDS
        while not held and time.monotonic() < deadline:
            time.sleep(0.05)
            held = cache.add(shared, 1, LOCK_SECONDS)
        try:
            yield True
        finally:
            if held:
                cache.delete(shared)
    finally:
        lock.release()


def event_standings(event: Event, after_round: int | None = None):
    """`standings.event_standings`, computed by one request at a time (the others find it cached)."""
    with single_flight(f"standings:{event_key(event)}:{after_round}"):
        return standings.event_standings(event, after_round=after_round)


# Written by a row template after each row (`{% for r in rows %}<tr>…</tr><!--/row-->{% endfor %}`). It cannot
# occur inside a row: names and notes are escaped, so a "<" in them is "&lt;".
ROW_END = "<!--/row-->"


@dataclass(frozen=True)
class RowIndex:
    """A table's rows rendered once per event version, and what a search compares in each: its name and reading,
    folded (tournament/text/name_search.py). A search picks rows out of it instead of rendering any."""

    rows: tuple[str, ...]
    folded: tuple[str, ...]

    def find(self, q: str) -> list[str]:
        needle = name_search.fold(q)
        return [row for row, text in zip(self.rows, self.folded, strict=True) if needle in text]


# Rows rendered before, by what shapes their HTML (`row_index`'s `shape`) and the row itself. In each process;
# emptied when it grows past ROW_MEMO_ROWS (a round of 2048 players with every result in twice is ~8000).
_row_memo: dict[tuple, tuple[str, str]] = {}
ROW_MEMO_ROWS = 50_000


def row_index(template: str, context: dict, rows: list, shape: str | None = None) -> RowIndex:
    """`rows` rendered by `template`, which ends each row with ROW_END. Callers cache it per event version and
    language, with the rest of the page.

    `shape` names everything besides the row that its HTML depends on (the template, the context, the
    language, the roster's names): rows rendered before under the same shape are not rendered again, so a
    new version of a 2048-row page renders only the rows a result changed. Rows must then be hashable.
    """
    if shape is None:
        html = _render_rows(template, context, rows)
        folded = [_folded(r) for r in rows]
        return RowIndex(tuple(html), tuple(folded))
    made = [_row_memo.get((shape, r)) for r in rows]  # each row hashed once: a 2048-row page per version
    missing = list(dict.fromkeys(r for r, m in zip(rows, made, strict=True) if m is None))
    if missing:
        if len(_row_memo) + len(missing) > ROW_MEMO_ROWS:
            _row_memo.clear()
        html = _render_rows(template, context, missing)
        rendered = {row: (h, _folded(row)) for row, h in zip(missing, html, strict=True)}
        _row_memo.update(((shape, row), value) for row, value in rendered.items())
        made = [rendered[r] if m is None else m for r, m in zip(rows, made, strict=True)]
    return RowIndex(tuple(h for h, _ in made), tuple(f for _, f in made))


def _render_rows(template: str, context: dict, rows: list) -> list[str]:
    html = render_to_string(template, context | game_words.context(None) | {"rows": rows}).split(ROW_END)
    html.pop()  # after the last row: only whitespace
    if len(html) != len(rows):
        raise ValueError(f"{template} wrote {len(html)} rows for {len(rows)}")
    return html


def _folded(row) -> str:
    # One string per row: a query is whitespace-normalised, so it never spans the line break.
    return f"{name_search.fold(row.name)}\n{name_search.fold(getattr(row, 'reading', ''))}"


def joined(rows: list[str] | tuple[str, ...]) -> SafeString:
    """Rows of a RowIndex, for a page: each was rendered (and escaped) by a template."""
    return mark_safe("".join(rows))  # noqa: S308


# Where a page's own content sits in base.html; what is around it is the frame.
_MAIN_START, _MAIN_END = b'<main id="main">', b"</main>"


def searched(event: Event, template: str, render: Callable[..., bytes], language: str, path: str) -> bytes:
    """A search's page without rendering the page's frame (head, header, language links) for it.

    The frame does not depend on the search: it is cut once per version from a whole rendering. The search
    renders only the template's `content` partial (a fragment, asked for by htmx, needs no frame at all).
    """
    page, _, part = template.partition("#")
    if part:
        return render()

    def frame() -> tuple[bytes, bytes]:
        html = render(page)
        start, end = html.index(_MAIN_START) + len(_MAIN_START), html.rindex(_MAIN_END)
        return html[:start], html[end:]

    before, after = cached(f"frame:{event_key(event)}:{BUILD}:{language}:{page}:{path}", frame)
    return before + render(f"{page}#content") + after


@dataclass(frozen=True)
class Rendering:
    """A page as rendered for one event version: what a later version may serve while it is being made.

    Kept as its head (without the HTML) under its version's key and as the page's latest rendering, and its
    HTML and gzipped HTML each under keys of their own (`_body_key`): every poll reads the head while the event
    changes, and a page only the body it sends (a big page is half a megabyte of HTML and 40 kB gzipped; from
    Redis, when app servers share it, reading both for every poll took more than rendering the page)."""

    version: int
    public: bool
    updated_at: float  # the event's `updated_at` then (Last-Modified)
    made_at: float  # time.time() when it was made
    cost: float  # seconds it took
    size: int  # bytes of the HTML
    gzipped: bool  # whether it is kept gzipped too (GZIP_MIN_BYTES)
    html: bytes | None = None  # None in the head
    compressed: bytes | None = None

    def head(self) -> "Rendering":
        return replace(self, html=None, compressed=None)


@dataclass(frozen=True)
class Made:
    """Anything else made for one event version (a search's rows): what a later version may use meanwhile."""

    version: int
    public: bool
    made_at: float
    cost: float
    size: int  # bytes of the HTML it holds, as a page's size decides whether it may lag
    value: Any


_M = TypeVar("_M", Rendering, Made)


def lagging(name: str, event: Event, make: Callable[[], Any], size: Callable[[Any], int], exact: bool) -> Any:
    """`make()` for the event's version, made once and cached; unless `exact`, the value made for an earlier
    version while it `may_lag`, as a big page does (a search must not cost a big rendering per result).

    Whatever a page shows under its version's ETag must be `exact`: only a page's own rendering may lag.
    """
    event_pk = event_identity(event)
    key, latest_key = f"{name}:{event_key(event)}", f"{name}-latest:{event_pk}"
    made = cache.get(key)
    if made is None:
        latest = None if exact else cache.get(latest_key)
        if latest is not None and may_lag(latest, event, time.time()):
            return latest.value

        def render() -> Made:
            started = time.perf_counter()
            value = make()
            return Made(event.version, event.public, time.time(), time.perf_counter() - started, size(value), value)

        made = _render_once(key, latest_key, render, latest, event)
    return made.value


def may_lag(made: "Rendering | Made", event: Event, now: float) -> bool:
    """May `made` stand in for the event's newer version a while longer?

    While results pour in (a 2048-player round stores ten a second), re-rendering a big page for every
    one of them would take all the server has. A rendering that took `cost` seconds may be served for
    up to PUBLIC_LAG_FACTOR x cost after it was made, at most PUBLIC_LAG_MAX seconds: rendering then
    takes at most about 1/PUBLIC_LAG_FACTOR of a core per page, whatever the rate of change. Only results
    stand in so: every bump since `made` must be a result of one round (`services.changed`'s run), never a change
    to the pairings or a correction, which the round's trail shows at once. A page
    smaller than PUBLIC_LAG_MIN_BYTES (every page of an event of a few hundred players) is always exact:
    the size, not the time it took, decides, so a busy or cold server never makes a small page lag.
    """
    if made.version >= event.version or made.public != event.public:
        return False
    if event.version != event.light_to or made.version < event.light_from:
        # Something besides results of one round changed since it was made (a swap, a re-pairing, a publication,
        # a corrected result: the round's trail): the players must see that at once.
        return False
    if made.size < settings.PUBLIC_LAG_MIN_BYTES:
        return False
    return now - made.made_at < min(settings.PUBLIC_LAG_MAX, made.cost * settings.PUBLIC_LAG_FACTOR)


def page_ident(template: str, language: str, params: tuple) -> str:
    """Names a page whatever the event's version: the build, the language, the template and its parameters."""
    ident = "\0".join([BUILD, language, template, *(str(p) for p in params)])
    return hashlib.blake2b(ident.encode(), digest_size=8).hexdigest()


def render_page(event: Event, template: str, context: Callable[[], dict], path: str) -> bytes:
    """The page `template` of `event`: its context is made only now (the rest of the event's row with it)."""
    load_rest(event)
    return render_to_string(template, context() | game_words.context(None) | {"page_path": path}).encode()


def rendering(event: Event, ident: str, render: Callable[[], bytes]) -> Rendering:
    """The page `ident`'s rendering (its head) for the event's version: made once and kept, or, while a big page's
    event changes faster than it can sensibly be rendered, the last one made (`may_lag`)."""
    event_pk = event_identity(event)
    key, latest_key = _page_key(event_pk, event.version, ident), f"rendering-head:{event_pk}:{ident}"
    made = cache.get(key)
    if made is None:
        latest = cache.get(latest_key)
        if latest is not None and may_lag(latest, event, time.time()):
            return latest

        def keep(made: Rendering) -> Rendering:
            return _keep(event_pk, ident, made)

        made = _render_once(key, latest_key, lambda: _rendered(event, render), latest, event, keep)
    return made


def page_body(
    event: Event, made: Rendering, ident: str, gzip_ok: bool, render: Callable[[], bytes]
) -> tuple[Rendering, bytes, bool]:
    """The body of the rendering `made` (gzipped when the client takes it and it is kept so), whether it is
    gzipped, and the rendering it is: made again for the event's version when the cache lost the body meanwhile
    (evicted apart from its head)."""
    event_pk = event_identity(event)
    zipped = gzip_ok and made.gzipped
    body = made.compressed if zipped else made.html
    if body is None:  # a head: the body its version keeps
        body = cache.get(_body_key(event_pk, made.version, ident, zipped))
    if body is None:
        made = _rendered(event, render)
        cache.set(_page_key(event_pk, made.version, ident), _keep(event_pk, ident, made), CACHE_SECONDS)
        zipped = gzip_ok and made.gzipped
        body = made.compressed if zipped else made.html
    return made, body, zipped


def _rendered(event: Event, render: Callable[[], bytes]) -> Rendering:
    started = time.perf_counter()
    html = render()
    compressed = gzip.compress(html, GZIP_LEVEL, mtime=0) if len(html) >= GZIP_MIN_BYTES else None
    made = Rendering(
        event.version, event.public, event.updated_at.timestamp(), time.time(), 0.0, len(html), bool(compressed)
    )
    return replace(made, cost=time.perf_counter() - started, html=html, compressed=compressed)


def _keep(event_pk: str, ident: str, made: Rendering) -> Rendering:
    """A rendering's bodies under keys of their own; its head, returned, for its version's key and the latest."""
    bodies = {_body_key(event_pk, made.version, ident, False): made.html}
    if made.compressed is not None:
        bodies[_body_key(event_pk, made.version, ident, True)] = made.compressed
    cache.set_many(bodies, CACHE_SECONDS)
    return made.head()


def _page_key(event_pk: str, version: int, ident: str) -> str:
    """Where the head of a page's rendering for one version of the event is kept."""
    return f"rendering:{event_pk}.{version}:{ident}"


def _body_key(event_pk: str, version: int, ident: str, gzipped: bool) -> str:
    return f"{_page_key(event_pk, version, ident)}:{'gzip' if gzipped else 'html'}"


def _render_once(
    key: str,
    latest_key: str,
    render: Callable[[], _M],
    latest: _M | None,
    event: Event,
    keep: Callable[[_M], _M] = lambda made: made,
) -> _M:
    """Render this version once; while another request renders a big page, serve its last rendering meanwhile.

    A small page is quick to render: waiting for it keeps every answer exact. A big page is rendered by one
    request at a time, whatever version each asks for: while results pour in, every request may come with a
    newer version than the one being rendered, and each rendering its own would take every thread at once.
    `keep`: what of a rendering is cached under `key` and `latest_key` (storing the rest elsewhere); `latest` is
    one such; a request that renders gets all of it.
    """
    big = latest is not None and latest.public == event.public and latest.size >= settings.PUBLIC_LAG_MIN_BYTES
    with single_flight(latest_key if big else key, wait=not big) as mine:
        if not mine:
            return latest  # another request is rendering this version: the last one stands in meanwhile
        made = cache.get(key)
        if made is None:
            made = render()
            kept = keep(made)
            cache.set(key, kept, CACHE_SECONDS)
            newest = cache.get(latest_key)
            if newest is None or newest.version <= made.version:
                cache.set(latest_key, kept, CACHE_SECONDS)
        return made
