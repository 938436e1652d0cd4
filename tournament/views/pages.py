"""What every organiser page does: render a page or its htmx fragment, go back where the person came
from, and name a result change as people read it."""

import uuid

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect

from tournament.models import Event, ResultChange, Round
from tournament.services.locks import current_round
from tournament.services.reports import told
from tournament.text.results import CHESS_RESULTS, result_word
from tournament.views.access import Access, HtmxHttpRequest, is_fragment


def page(request: HtmxHttpRequest, template: str, access: Access | None, partial: str | None = None, **context):
    """Render a page, or only its named partial for an htmx swap (not for a history restore, which wants
    the whole page); every event page shows the clock."""
    if access is not None:
        event = access.event
        context.setdefault("current", current_round(event))
        context.update(event=event, access=access)
        if event.parent_id:  # a section's pages say whose it is and lead to the others (docs/sections.md)
            context.update(venue_root=event.parent, venue_sections=event.parent.section_list)
    context.setdefault("once", uuid.uuid4().hex)
    if partial and is_fragment(request):
        template += f"#{partial}"
    response = render(request, template, context)
    if partial:
        patch_vary_headers(response, ("HX-Request", "HX-History-Restore-Request"))
    return response


def _next(request: HtmxHttpRequest, default: str) -> str:
    """Where a form asks to go back to, if it is on this site; `default` otherwise."""
    nxt = request.POST.get("next", "")
    # A path on this site: anything else (a view name such as "abc" included) is not followed.
    ok = nxt.startswith("/") and url_has_allowed_host_and_scheme(nxt, {request.get_host()}, request.is_secure())
    return nxt if ok else default


def _save_changed(form) -> None:
    """Save the form's own fields only: the event's version counter and other columns are not rewritten."""
    form.save(commit=False).save(update_fields=[f for f in form._meta.fields if f in form.cleaned_data])


def back(request: HtmxHttpRequest, url: str) -> HttpResponse:
    """After a POST: a redirect for a plain form, a client-side redirect for an HTMX one."""
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def snapshot_label(snap: dict | None, chess: bool = False) -> str:
    """A result as a match's history kept it; `chess`: one game as chess writes it (½-½, not 0-0-1)."""
    if not snap:
        return _("no result")
    if snap.get("games"):
        a, b, d = snap["games"]
        if chess and (a, b, d) in CHESS_RESULTS:
            return CHESS_RESULTS[(a, b, d)]
        return f"{a}-{b}-{d}" if d else f"{a}-{b}"
    result = snap.get("result", "")
    return result_word(result)


def labelled(changes, chess: bool = False) -> list[ResultChange]:
    """Result changes as a history reads them: the result before and after, who stored it (a person at the desk,
    or the player whose phone's report stored it), and what each player had reported from their phone.

    The changes come with `by`, `player` and their match's players (select_related)."""
    changes = list(changes)
    for c in changes:
        c.before_label, c.after_label = snapshot_label(c.before, chess), snapshot_label(c.after, chess)
        if c.by_id:
            c.who = c.by.get_username()
        elif c.player_id:
            c.who = _("%(name)s, by phone") % {"name": c.player.name}
        else:
            c.who = "—"
        m = c.match
        players = {p.pk: p for p in (m.player_a, m.player_b) if p is not None}
        c.versions = []
        for r in c.reports:
            who = players.get(r["player"])
            games = tuple(r["games"]) if r["games"] else None
            text = _("that's not right") if r["disputes"] else told(games, r["result"], m, chess)
            c.versions.append((who.name if who else "?", text))
    return changes


def _round(event: Event, number: int) -> Round:
    return get_object_or_404(Round, event=event, number=number)
