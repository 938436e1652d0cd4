"""Budgets that refill at a steady pace (the generic cell rate algorithm), kept in `CodeBudget` rows: one
row and one locked update per turn, however many turns were taken before. Player codes take their turns
here (`codes.take_turn`), and so do an account's heavy actions (`take_heavy_turn`: pairing, re-pairing,
creating or importing an event).

A turn that is not due yet is refused at once (`Throttled`, with the seconds to wait): no request is held
to slow anybody down.
"""

import math
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Case, F, When
from django.utils import timezone
from django.utils.translation import ngettext

from tournament.models import CodeBudget
from tournament.services.locks import ServiceError

# (scope, turns at once, one more every)
Budget = tuple[str, int, timedelta]


class Throttled(ServiceError):
    """Turns are taken faster than the budget refills: try again in `seconds`."""

    def __init__(self, message: str, seconds: int):
        super().__init__(message)
        self.seconds = seconds


def take(budgets: list[Budget], refusal: Callable[[int], str]) -> None:
    """Take one turn from each budget, in one transaction that locks their rows (so forty requests at once
    take forty turns, never the same one twice). `Throttled(refusal(seconds))`, with nothing taken, when any
    budget has no turn left now."""
    take_first(budgets, [[]], refusal)


def take_first(required: list[Budget], options: list[list[Budget]], refusal: Callable[[int], str]) -> list[Budget]:
    """Take one turn from each of `required` and from each budget of the first of `options` that has a turn in every
    one of them, in one transaction that locks all their rows (always in the same order); returns the budgets taken
    from. `Throttled(refusal(seconds))`, with nothing taken, when `required` or every option has no turn now."""
    now = timezone.now()
    scopes = sorted({scope for scope, *_ in required + [b for option in options for b in option]})
    with transaction.atomic():
        CodeBudget.objects.filter(full_at__lt=now - timedelta(days=1)).delete()  # full for a day: forgotten
        CodeBudget.objects.bulk_create([CodeBudget(scope=s, full_at=now) for s in scopes], ignore_conflicts=True)
        rows = {b.scope: b for b in CodeBudget.objects.select_for_update().order_by("scope").filter(scope__in=scopes)}

        def wait(budget: Budget) -> float:
            """Seconds until this budget's next turn (0 or less: now), and the row as it is once taken."""
            scope, size, interval = budget
            return (max(rows[scope].full_at, now) + interval - size * interval - now).total_seconds()

        def refused(budgets: list[Budget]) -> Throttled:
            seconds = max(1, math.ceil(max(wait(b) for b in budgets)))
            return Throttled(refusal(seconds), seconds)

        late = [b for b in required if wait(b) > 0]
        if late:
            raise refused(late)
        chosen = next((option for option in options if all(wait(b) <= 0 for b in option)), None)
        if chosen is None:
            raise refused(min(options, key=lambda option: max(wait(b) for b in option)))
        taken = [*required, *chosen]
        for scope, _size, interval in taken:
            rows[scope].full_at = max(rows[scope].full_at, now) + interval
        CodeBudget.objects.bulk_update([rows[scope] for scope, *_ in taken], ["full_at"])
    return taken


def give_back(budgets: list[Budget]) -> None:
    """Return the turn just taken from each budget (one update)."""
    back = Case(*(When(scope=scope, then=F("full_at") - interval) for scope, _size, interval in budgets))
    CodeBudget.objects.filter(scope__in=[scope for scope, *_ in budgets]).update(full_at=back)


def take_heavy_turn(user) -> None:
    """An account's turn at an action that can keep a server busy for seconds (pairing a round, creating or
    importing an event): HEAVY_ACTIONS at once, then one every HEAVY_ACTION_SECONDS."""
    budget = (f"heavy:{user.pk}", settings.HEAVY_ACTIONS, timedelta(seconds=settings.HEAVY_ACTION_SECONDS))

    def refusal(seconds: int) -> str:
        return ngettext(
            "Too many pairings and imports from your account in a short time: try again in %(seconds)s second.",
            "Too many pairings and imports from your account in a short time: try again in %(seconds)s seconds.",
            seconds,
        ) % {"seconds": seconds}

    take([budget], refusal)
