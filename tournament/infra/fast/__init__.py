"""The hand-written fast paths: every place where the app does by hand what Django or a library would do for
it, because a measurement showed the library's way too slow on a busy round. The two modules of their own
live here; the others stay beside the code they speed up, and each is listed with the measurement that
justified it. The commands that take the figures are in docs/benchmarks.md.

Here:
- `rows.Joined` — a player's poll and a report's locked read as one hand-written join: 1.2 ms against the
  ORM's 5.9 ms of CPU per poll (2,048 phones polling every 3 s; `bench/self_report.py`).
- `rows.single` — the one row a unique lookup finds, without the ORDER BY `first()` adds: compiling it cost more
  than PostgreSQL takes to find the row, on the pages every phone polls.
- `postgresql/` — a connection health check without a round trip: `SELECT 1` was 13 % of the worker threads'
  request time with 2,048 phones (`bench/self_report.py`).

Beside their code:
- `tournament/pages/memo.py` and `tournament/views/public_cache.py` — renderings cached per event version
  (gzipped, one rebuild at a time; memo.py) and the conditional answer around them (public_cache.py): a poll of
  an unchanged page is one query and a 304, about 1 ms of server CPU; a thousand phones polling every 15 s cost
  17 % of one core (`bench/public_load.py`). Django's `condition` decorator answers the 304 but neither renders
  once per version for everybody nor keeps the gzipped body; `cache_page` keeps a page for a time, keyed on its
  URL; nginx `proxy_cache` would serve stale pages across a result (the version is known only to the app).
- `locks.changed` (`tournament/services/locks.py`) — the version bump and the run of one round's results in one
  `UPDATE … RETURNING`: the settled standings of earlier rounds hold across a round's results in every
  process (`bench/results_page.py`).
- `results._MISSING_SQL` (`tournament/services/results.py`) — whether a round has a result missing, asked
  after every stored result: compiling the ORM query cost more than answering it (`bench/self_report.py`).
- `reports._put` (`tournament/services/reports.py`) — a report as one `INSERT … ON CONFLICT` under the match
  lock, on PostgreSQL (`bench/self_report.py`).
- `roster._insert_players` COPY (`tournament/services/roster.py`) — a 50,000-row roster in one `COPY` instead of
  batched INSERTs (`bench/roster_import.py`).
- `locks.shared_round` (`tournament/services/locks.py`) — the round row `FOR SHARE`, which the ORM cannot say,
  so a round's results are stored side by side (`tests/test_concurrency.py`).
"""
