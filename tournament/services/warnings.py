"""FIDE mode's warnings: levels the arbiter passes one by one, none of which can be switched off
(docs/fide-mode.md).

    level 2  ACKNOWLEDGE    the arbiter says they have read it
    level 3  CONFIRM        confirm, or cancel
    level 4  CONSEQUENCES   confirm, then confirm again on a page that states the consequences
    level 5  REFUSE         never passed: the action is refused (the arbiter may leave FIDE mode instead)

How a workflow uses it (services decide, views only ask):

    def give_bye(..., passed: Passed = NONE):
        with transaction.atomic():
            ...
            check(event, by, [Warning(Level.CONFIRM, "second_half_bye", text, trf=line, player=p.key)], passed,
                  round=number)
            ...do the work...

`check` raises `Unpassed` (a `ServiceError`) with the warnings not yet passed; the caller's transaction rolls
back, and nothing is done. The view catches it and answers with `tournament.views.warnings.ask`, a page (no
script needed) that posts the same form again with the passes the arbiter gave (`passed` fields,
`passes(request)` reads them back). Since the first submission rolled back, its once-token (forms/once.py) is
free again: the confirmed submission claims it, and a double click on "Confirm" is a repeat, done once.

Once every warning is passed, `check` writes each to the event's log (EventLog, action "warning": level,
code, parameters, the sentence as the arbiter read it) and, for those with a `trf` line, that line is kept
in the log too: `trf_comments(event)` gives them, in order, as the `###` lines the TRF export writes.

A warning's `key` names the situation (code and parameters), not the words: a pass given for one situation
never passes another (a different player, a different round), in any language.
"""

import hashlib
import json
from collections.abc import Collection
from dataclasses import dataclass, field
from enum import IntEnum

from tournament.models import Event, EventLog
from tournament.services.locks import ServiceError, log


class Level(IntEnum):
    ACKNOWLEDGE = 2
    CONFIRM = 3
    CONSEQUENCES = 4
    REFUSE = 5


@dataclass(frozen=True)
class Warning:
    """One warning: its level, a stable code, the sentence the arbiter reads (in the active language), and for
    level 4 the consequences the second confirmation states; `trf` is the text of the `###` line the TRF export
    writes once it is passed (English, without the `### `), empty for none. `params` name the situation."""

    level: Level
    code: str
    text: str
    consequences: str = ""
    trf: str = ""
    params: dict = field(default_factory=dict)

    @property
    def key(self) -> str:
        facts = json.dumps([self.code, self.params], sort_keys=True, default=str)
        return f"{self.code}-{hashlib.blake2b(facts.encode(), digest_size=6).hexdigest()}"

    @property
    def second_key(self) -> str:
        """The pass of a level-4 warning's second confirmation."""
        return self.key + "-2"


Passed = Collection[str]
NONE: Passed = frozenset()


class Unpassed(ServiceError):
    """Warnings the arbiter has still to pass; `second` when all of them are level-4 warnings waiting for the
    second confirmation (the page then states their consequences)."""

    def __init__(self, pending: list[Warning], passed: Passed):
        super().__init__(" ".join(w.text for w in pending))
        self.pending = pending
        self.second = all(w.level == Level.CONSEQUENCES and w.key in passed for w in pending)


def pending(warnings: list[Warning], passed: Passed) -> list[Warning]:
    """The warnings not passed yet: a level-4 one needs both confirmations."""
    return [
        w for w in warnings if w.key not in passed or (w.level == Level.CONSEQUENCES and w.second_key not in passed)
    ]


def check(event: Event, by, warnings: list[Warning], passed: Passed, *, round: int | None = None) -> None:
    """Refuse on a level-5 warning; raise `Unpassed` while any other is not passed; else log them all.

    Call inside the workflow's transaction, before its work is kept: a refusal or a question rolls it back."""
    for w in warnings:
        if w.level >= Level.REFUSE:
            raise ServiceError(w.text)
    waiting = pending(warnings, passed)
    if waiting:
        raise Unpassed(waiting, passed)
    for w in warnings:
        record(event, by, w, round=round)


def record(event: Event, by, w: Warning, *, round: int | None = None) -> None:
    """A passed warning in the event's log (and its `###` line, kept there for the TRF export)."""
    log(event, "warning", by, level=int(w.level), code=w.code, params=w.params, text=w.text, trf=w.trf, round=round)


def note(event: Event, by, code: str, trf: str, *, round: int | None = None, **params) -> None:
    """A `###` line the TRF export writes that no warning asked for (the arbiter's act itself is the record)."""
    log(event, "warning", by, level=0, code=code, params=params, text=trf, trf=trf, round=round)


def trf_comments(event: Event) -> list[str]:
    """The `###` lines of the event's passed warnings, oldest first, as the TRF export writes them (a warning's
    `trf` text may hold several lines, each its own `###` line)."""
    rows = EventLog.objects.filter(event=event, action="warning").order_by("at", "id").values_list("detail", flat=True)
    return [f"### {' '.join(line.split())}" for d in rows for line in d.get("trf", "").splitlines() if line.strip()]
