"""The round clock: start, pause, resume, lengthen, and when it ends."""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from swiss.model import MAX_ROUND_MINUTES
from tournament.models import (
    Round,
)
from tournament.services.locks import ServiceError, changed, lock_event, locked_round


def change_clock(rnd: Round, action: str, by, minutes: int = 0) -> None:
    """Start, pause, resume or lengthen a round's clock.

    Each change reads the clock and writes it back ("+5 min" is the length read plus five), so it holds the
    round row meanwhile: two clicks at once on two organisers' pages add ten minutes, not five.
    """
    with transaction.atomic():
        # The event first, as every workflow that changes a round and bumps the version (event, round,
        # match): the view runs this inside its own transaction, so the bump below holds its lock till then.
        event = lock_event(rnd.event)
        locked = locked_round(rnd.pk)
        if locked is None:
            raise ServiceError(gettext("That round is gone: someone re-paired it meanwhile."))
        locked.event = event
        if _change_clock(locked, action, minutes):
            changed(event)
    for field in ("clock_started", "clock_paused_at", "clock_paused_seconds", "clock_minutes", "state"):
        setattr(rnd, field, getattr(locked, field))


def _change_clock(rnd: Round, action: str, minutes: int) -> bool:
    now = timezone.now()
    if not rnd.is_published:
        raise ServiceError(gettext("Publish the round before starting its clock."))
    fields = []
    if action == "start" and rnd.clock_started is not None:
        return False  # already running: a second click on Start must not reset it
    if action in ("start", "restart"):
        rnd.clock_started, rnd.clock_paused_at, rnd.clock_paused_seconds = now, None, 0
        rnd.clock_minutes = rnd.event.round_minutes
        fields = ["clock_started", "clock_paused_at", "clock_paused_seconds", "clock_minutes"]
        if rnd.state == Round.State.PAIRED:
            rnd.state = Round.State.IN_PROGRESS
            fields.append("state")
    elif rnd.clock_started is None:
        raise ServiceError(gettext("The clock has not started yet."))
    elif action == "pause":
        if rnd.clock_paused_at is None:
            rnd.clock_paused_at = now
            fields = ["clock_paused_at"]
    elif action == "resume":
        if rnd.clock_paused_at is not None:
            rnd.clock_paused_seconds += int((now - rnd.clock_paused_at).total_seconds())
            rnd.clock_paused_at = None
            fields = ["clock_paused_seconds", "clock_paused_at"]
    elif action == "add":
        if not -60 <= minutes <= 120 or minutes == 0:
            raise ServiceError(gettext("Add between 1 and 120 minutes (or take off up to 60)."))
        if rnd.clock_minutes + minutes > MAX_ROUND_MINUTES:
            raise ServiceError(
                _("A round lasts at most %(hours)s hours: the clock already runs %(minutes)s minutes.")
                % {"hours": MAX_ROUND_MINUTES // 60, "minutes": rnd.clock_minutes}
            )
        rnd.clock_minutes = max(1, rnd.clock_minutes + minutes)
        fields = ["clock_minutes"]
    else:
        raise ServiceError(gettext("Unknown clock action."))
    if fields:
        rnd.save(update_fields=fields)
    return bool(fields)


def clock_end(rnd: Round):
    left = rnd.seconds_left()
    return None if left is None else timezone.now() + timedelta(seconds=left)
