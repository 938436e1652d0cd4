"""The shared cache (Redis) as a venue needs it: an outage costs speed, never an answer.

Django's own `RedisCache` raises on every call while Redis is down, so each page that reads the cache
answered 500 (468 of 870 public requests in one outage). `FailSafeRedisCache` is that backend with a fuse:
the first call that cannot reach Redis logs one warning and sends this process's calls, for
`RETRY_SECONDS`, to a small cache in its own memory (as `make run` always has); then Redis is tried again,
and used again as soon as it answers. What the cache holds is only ever a copy (pages, standings) or a
rough limit (searches per address, the lock that lets one request rebuild a page): in memory they are
per process for the outage, which is the safe side of each. Connections give up after `TIMEOUT` seconds,
so a Redis that hangs costs a request at most that once per retry.
"""

from __future__ import annotations

import logging
import threading
import time

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger("tournament.infra.cache")

RETRY_SECONDS = 5.0
TIMEOUT = 0.5
_UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)
_METHODS = (
    "add",
    "get",
    "set",
    "touch",
    "delete",
    "get_many",
    "has_key",
    "incr",
    "set_many",
    "delete_many",
    "clear",
)


class FailSafeRedisCache(RedisCache):
    def __init__(self, server, params):
        params = {
            **params,
            "OPTIONS": {"socket_connect_timeout": TIMEOUT, "socket_timeout": TIMEOUT, **params.get("OPTIONS", {})},
        }
        super().__init__(server, params)
        self._memory = LocMemCache("fail-safe", {"OPTIONS": {"MAX_ENTRIES": 2000}})
        self._down_until = 0.0
        self._fuse = threading.Lock()

    @property
    def down(self) -> bool:
        return time.monotonic() < self._down_until

    def _fall_back(self, error: Exception) -> None:
        with self._fuse:
            was_down = self._down_until > 0
            self._down_until = time.monotonic() + RETRY_SECONDS
        if not was_down:
            logger.warning(
                "Redis is unreachable (%s): this process caches in its own memory and limits per process, "
                "trying Redis again every %s s",
                error,
                RETRY_SECONDS,
            )

    def _recovered(self) -> None:
        with self._fuse:
            was_down, self._down_until = self._down_until > 0, 0.0
        if was_down:
            logger.warning("Redis answers again: the shared cache is back in use")
            self._memory.clear()


def _fail_safe(name: str):
    shared = getattr(RedisCache, name)

    def method(self, *args, **kwargs):
        if self.down:
            return getattr(self._memory, name)(*args, **kwargs)
        try:
            value = shared(self, *args, **kwargs)
        except _UNREACHABLE as e:
            self._fall_back(e)
            return getattr(self._memory, name)(*args, **kwargs)
        if self._down_until:
            self._recovered()
        return value

    method.__name__ = name
    method.__doc__ = shared.__doc__
    return method


for _name in _METHODS:
    setattr(FailSafeRedisCache, _name, _fail_safe(_name))
