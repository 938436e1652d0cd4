"""What the organiser's "What do I need" page shows: for the round being played, each player's claim for a win,
a draw and a loss (in, out, depends on tables ...) for the line chosen, with the sentence their phone shows.
The stored outlook (services.outlooks) when the line is the event's own; worked out here for another."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from standings.outlook import OutlookRefused
from swiss.messages import message_of
from swiss.model import parse_fraction
from tournament.models import Event, Round, RoundOutlook
from tournament.services.outlooks import Line, default_line, work_out
from tournament.text import l10n
from tournament.text.engine_text import sentence, translate, translate_all


@dataclass(frozen=True)
class OutlookRow:
    name: str
    table: int | None
    claims: list[tuple[str, str]]  # (outcome heading, claim in words) for win, draw, loss
    sentences: list[str]


def asked_line(places: str | None, points: str | None) -> tuple[Line | None, str]:
    """The line the form asks for, as a person types it in their language (a place: 8, or ８; points: 6, 4.5,
    Danish 4,5 or 9/2), or None for none asked; with a sentence saying why what was typed is not one."""
    if places and places.strip():
        n = l10n.read_whole(places) if len(places) <= 12 else None
        if n is not None and n >= 1:
            return Line(places=n), ""
        return None, _("“%(value)s” is not a number of places: write a whole number such as 8.") % {
            "value": places.strip()[:20]
        }
    if points and points.strip():
        try:
            p = l10n.read_fraction(points)
        except ValueError:
            p = None
        if p is not None and p >= 0:
            return Line(points=p), ""
        return None, _("“%(value)s” is not a number of match points: write one such as 6 or 4.5.") % {
            "value": points.strip()[:20]
        }
    return None, ""


def chosen_line(event: Event, rnd: Round | None, asked: Line | None) -> Line:
    """The line asked for (a place N or P points), else the event's: its Day-2 cut, its top cut, or the top 8."""
    if asked is not None:
        return asked
    if rnd is not None:
        line = default_line(event, rnd)
        if line is not None:
            return line
    if event.top_cut:
        return Line(places=event.top_cut)
    if event.cut_points:
        try:
            return Line(points=parse_fraction(event.cut_points))
        except ValueError:
            pass
    return Line(places=8)


def outlook_context(event: Event, places: str | None = None, points: str | None = None) -> dict:
    rnd = event.rounds.exclude(state=Round.State.DRAFT).filter(kind=Round.Kind.SWISS).order_by("-number").first()
    asked, problem = asked_line(places, points)
    line = chosen_line(event, rnd, asked)
    words = {
        "in": pgettext("outlook claim", "in"),
        "out": pgettext("outlook claim", "out"),
        "depends": pgettext("outlook claim", "depends"),
    }
    heads = [
        (o, h)
        for o, h in (
            ("win", pgettext("outlook column", "Win")),
            ("draw", pgettext("outlook column", "Draw")),
            ("loss", pgettext("outlook column", "Loss")),
        )
        if o != "draw" or event.draws
    ]
    names = dict(event.players.values_list("key", "name"))
    pks = dict(event.players.values_list("pk", "name"))
    stored = RoundOutlook.objects.filter(round=rnd).first() if rnd is not None else None
    rows: list[OutlookRow] = []
    error = ""
    exact = True
    if problem:
        error = problem
    elif stored is not None and stored.line == line.as_dict():
        exact = stored.exact
        if stored.error:
            error = sentence(stored.error)
        for pk, d in stored.players.items():
            rows.append(_row(pks.get(int(pk), pk), d, heads, words, translate_all(d.get("sentences", []))))
    else:
        try:
            result = work_out(event, line)
        except OutlookRefused as e:
            error = sentence(message_of(e))
        else:
            exact = result.exact
            for p, d in zip(result.players, result.as_dict()["players"], strict=True):
                said = [translate(s) for s in p.sentences(result)]
                rows.append(_row(names.get(p.player_id, p.player_id), d, heads, words, said))
    rows.sort(key=lambda r: (r.table is None, r.table or 0, r.name))
    return {
        "round": rnd,
        "line": line,
        "line_points": "" if line.points is None else l10n.exact(line.points),
        "rows": rows,
        "heads": [h for _o, h in heads],
        "error": error,
        "exact": exact,
    }


def _row(name, d: dict, heads, words, sentences) -> OutlookRow:
    claims = []
    for o, _head in heads:
        code = d.get(o)
        text = words.get(code, "–") if code else "–"
        tables = d.get("tables", {}).get(o)
        if code == "depends" and tables:
            text = _("depends: tables %(tables)s") % {"tables": l10n.join(tables)}
        claims.append((o, text))
    return OutlookRow(name=name, table=d.get("table"), claims=claims, sentences=sentences)
