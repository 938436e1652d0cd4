"""The event and round locks every workflow takes, the version bump (`changed`) that tells caches and
ETags a page is out of date, the audit log (`log`), and `ServiceError`, the refusal every workflow raises
with a sentence a person can act on; and the questions every workflow asks of the rounds (the latest,
the one being played, the results still outstanding)."""

from django.db import connection
from django.db.models import F, Q
from django.utils import timezone

from tournament.models import (
    Event,
    EventLog,
    Match,
    Report,
    Round,
)


class ServiceError(Exception):
    """A refusal with a message for the person who asked."""


def changed(event: Event, results_of_round: int | None = None) -> int:
    """Bump the event's version: every cached page and ETag of the old one is out of date (an atomic increment).

    Returns the version this change made: exactly ours, even when another change bumps it at the same
    moment (the update returns it, instead of reading the row again afterwards).

    `results_of_round=n`: the change was a result of round n, which leaves the standings after every
    earlier round as they were: their `settled_marker` holds over the new version instead of being read
    again (a busy round stores results ten a second; each would read the whole roster again), in every
    process that reads the event's row, whatever cache it has (`_settled_key`). Consecutive results of the
    same round make a run (`light_from` .. `light_to`); any other bump, here or by any other path, breaks
    it, since the version then moves past `light_to`. SET reads the row as it was, in PostgreSQL and SQLite
    alike.
    """
    now = timezone.now()
    table, version, updated, light_from, light_to, light_round = (
        connection.ops.quote_name(n)
        for n in (Event._meta.db_table, "version", "updated_at", "light_from", "light_to", "light_round")
    )
    run, params = "", []
    if results_of_round:
        same = f"{version} = {light_to} AND {light_round} = %s"
        run = (
            f"{light_from} = CASE WHEN {same} THEN {light_from} ELSE {version} END, "
            f"{light_to} = {version} + 1, {light_round} = %s, "
        )
        params = [results_of_round, results_of_round]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET {run}{version} = {version} + 1, {updated} = %s WHERE id = %s "  # noqa: S608
            f"RETURNING {version}, {light_from}, {light_to}, {light_round}",
            [*params, now, event.pk],
        )
        event.version, event.light_from, event.light_to, event.light_round = cursor.fetchone()
    event.updated_at = now
    return event.version


def discard_reports(match_ids) -> None:
    """Who plays these matches changed (a swap, an edit in the admin): what was reported on them was said
    of another pairing and must never count for this one. The stamps move on, so a page that showed one
    of those reports can no longer confirm what it showed."""
    Report.objects.filter(match__in=match_ids).delete()
    Match.objects.filter(pk__in=match_ids).update(report_stamp=F("report_stamp") + 1)


def log(event: Event, action: str, by, **detail) -> None:
    EventLog.objects.create(event=event, action=action, by=by, detail=detail)


def lock_event(event: Event) -> Event:
    """The event row locked against the other workflows that lock it, and against version bumps.

    FOR NO KEY UPDATE, not FOR UPDATE: a row that refers to the event (a log line, a round) may still be
    written meanwhile. Its foreign-key check takes a KEY SHARE lock on the event row at commit, which FOR
    UPDATE would make wait: a result holding its round row would then wait for a re-pair holding the event
    and waiting for that round.
    """
    return Event.objects.select_for_update(no_key=True).get(pk=event.pk)


def shared_round(pk: int) -> Round | None:
    """The round row held FOR SHARE: the round's results are stored side by side, while a re-pair, a swap, an
    undo or the clock (which take the row FOR UPDATE, `locked_round`) wait for them, and they for it.

    SQLite has no row locks (a writer holds the whole database), so there it is a plain read.
    """
    if connection.vendor != "postgresql":
        return Round.objects.filter(pk=pk).order_by("pk").first()
    table = connection.ops.quote_name(Round._meta.db_table)
    return next(iter(Round.objects.raw(f"SELECT * FROM {table} WHERE id = %s FOR SHARE", [pk])), None)  # noqa: S611


def locked_round(pk: int) -> Round | None:
    """The round row locked (only it: Round's default ordering would join and lock the event row too)."""
    return Round.objects.select_for_update(of=("self",)).filter(pk=pk).order_by("pk").first()


def latest_round(event: Event) -> Round | None:
    return event.rounds.order_by("-number").first()


def current_round(event: Event) -> Round | None:
    """The round the venue is playing: the latest published one."""
    return event.rounds.exclude(state=Round.State.DRAFT).order_by("-number").first()


def awaiting_result(through: str = "") -> Q:
    """Matches whose result is still outstanding (`Match.has_result`, in SQL): paired to play, no games
    entered yet. `through` reaches them over a relation: `awaiting_result("matches__")` filters a round's."""
    return Q(**{f"{through}result": Match.Result.PLAYED, f"{through}games_a__isnull": True})


def outstanding(rnd: Round) -> int:
    """How many of the round's results are still to come."""
    return rnd.matches.filter(awaiting_result()).count()


def swiss_rounds_played(event: Event) -> int:
    return event.rounds.filter(kind=Round.Kind.SWISS).count()
