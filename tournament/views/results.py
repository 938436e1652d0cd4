"""Entering and changing results at the desk: one-click buttons (round page and top cut), the keyboard
entry (table, then result) and the “other…” form.

Every path ends in `services.record_result`, so the rules are the same whichever one is used: impossible
results and draft rounds are refused with the same message, and replacing a stored result says what it
replaces and asks once (`ConfirmReplace`), then is logged as a correction. A FIDE-mode warning the result needs
(an adjourned game's, services/adjourned.py) is asked where it was entered: in the row or the desk's line with
htmx (`views.warnings.asking`), else on the warnings page, which posts the same entry again with the passes.
"""

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournament.forms.results import GamesForm, ResultForm, TableResultForm
from tournament.models import Match, Round
from tournament.pages.round import change_lines, result_choices, round_context
from tournament.services.locks import ServiceError
from tournament.services.results import ConfirmAdvance, ConfirmReplace, advance_question, parse_outcome, record_result
from tournament.services.warnings import Unpassed
from tournament.text.results import result_label
from tournament.views.access import Access, HtmxHttpRequest, event_for
from tournament.views.responses import back, next_url, page, round_or_404
from tournament.views.warnings import ask, asking, passes


def _first_error(form) -> str:
    return next(iter(form.errors.values()))[0]


def _pairings_changed(request: HtmxHttpRequest, slug: str, number: int, match_id: int) -> HttpResponse:
    """A match a page showed is gone: the round was paired again. Say so and show the current pairings.

    An id that still exists belongs to another round or event: that stays a plain 404.
    """
    if Match.objects.filter(pk=match_id).exists():
        raise Http404("No such match in this round.")
    messages.error(
        request,
        _("Round %(number)s was paired again meanwhile: nothing was entered. Here are the current pairings.")
        % {"number": number},
    )
    return back(request, reverse("org_round", args=[slug, number]))


@require_POST
@login_required
def match_result(request: HtmxHttpRequest, slug: str, number: int, match_id: int):
    """One click on a result button; the row answers in place (HTMX) or the page reloads."""
    access = event_for(request, slug)
    rnd = round_or_404(access.event, number)
    match = Match.objects.select_related("player_a", "player_b", "round").filter(pk=match_id, round=rnd).first()
    if match is None:
        return _pairings_changed(request, slug, number, match_id)
    form = ResultForm(request.POST)
    error = question = warning = None
    here = reverse("org_round", args=[slug, number]) + f"#m-{match.pk}"
    if not form.is_valid():
        error = _first_error(form)
    elif rnd.kind == Round.Kind.ELIMINATION and not match.has_result and not form.cleaned_data["confirm"]:
        # A top-cut result sends a player on (and pairs the next stage): the organiser confirms each one.
        return _confirm_on_bracket(request, slug, match, form.cleaned_data["result"])
    else:
        try:
            outcome = parse_outcome(form.cleaned_data["result"], access.event.best_of, access.event.chess_results)
            match = record_result(
                match,
                outcome,
                request.user,
                form.cleaned_data["version"],
                replace=form.cleaned_data["confirm"],
                passed=passes(request),
            )
        except ConfirmReplace as e:
            match, question = e.match, e
        except Unpassed as e:  # FIDE mode: asked in the row (htmx), else on the warnings page
            if not request.htmx:
                return ask(request, access, e, here)
            warning = asking(request, e, request.path, cancel_url=here, target="closest tr")
        except ServiceError as e:
            error = str(e)
    if not request.htmx:
        if question:
            return _ask_on_match_page(request, access, rnd, question)
        if error:
            messages.error(request, error)
        return redirect(next_url(request, here))
    rnd.refresh_from_db()
    ctx = round_context(access.event, rnd, row=match, error=error, question=question, warning=warning)
    return page(request, "organiser/round.html", access, partial="row-response", **ctx)


@dataclass
class DeskLine:
    """One entry in the desk's running list, as the typist sent it: its table and result as typed, and what
    became of it: stored (or kept) with the result as stored, refused with why, or a question to answer."""

    table: str
    typed: str
    state: str = "refused"  # stored, kept, cancelled, asking or refused
    label: str = ""  # the result as stored, as the row shows it
    text: str = ""  # the sentence: “Table 17: Ann 1-0 Bob”, or the refusal


@require_POST
@login_required
def table_result(request: HtmxHttpRequest, slug: str, number: int):
    """The keyboard path: a table number, Enter, the result, Enter.

    With HTMX each entry is sent on its own by the desk's queue (static/js/organiser.js) and answered by its
    line in the running list (“T17 1-0 ✓”, a refusal and why, or Replace / Keep): the fields being typed in
    are never part of the answer, so nothing typed meanwhile is lost or sent elsewhere. Without it, the page
    reloads with a message, and a question is asked on the match's own page.
    """
    access = event_for(request, slug)
    rnd = round_or_404(access.event, number)
    chess = access.event.chess_results
    form = TableResultForm(request.POST)
    match = question = done = warning = None
    state = "stored"
    if form.is_valid():
        data = form.cleaned_data
        match = rnd.matches.select_related("player_a", "player_b", "round").filter(table=data["table"]).first()
        if match is None:
            form.add_error(
                "table",
                _("There is no table %(table)s in round %(number)s.") % {"table": data["table"], "number": number},
            )
        elif data["keep"] and match.has_result:
            state = "kept"
            done = _("Table %(table)s keeps %(result)s.") % {"table": match.table, "result": result_label(match, chess)}
        elif data["keep"]:  # “Cancel” to a top-cut result's question
            state = "cancelled"
            done = _("Table %(table)s: nothing entered.") % {"table": match.table}
        else:
            try:
                outcome = parse_outcome(data["result"], access.event.best_of, chess)
                # A top-cut result is confirmed before it sends a player on, as on the bracket page.
                question = None if data["confirm"] else advance_question(match, outcome)
                if question is None:
                    # The version only counts as an answer (“replace?”, “confirm?”): typing alone never overwrites.
                    version = data["version"] if data["confirm"] else None
                    match = record_result(
                        match, outcome, request.user, version, replace=data["confirm"], passed=passes(request)
                    )
            except ConfirmReplace as e:
                match, question = e.match, e
            except Unpassed as e:  # FIDE mode: asked in the desk's line (htmx), else on the warnings page
                if not request.htmx:
                    return ask(request, access, e, reverse("org_round", args=[slug, number]))
                warning = asking(request, e, request.path, target="closest li")
            except ServiceError as e:
                form.add_error(None, str(e))
            else:
                if question is None:
                    first, second = match.colour_order()  # as the result reads: White's side first
                    done = _("Table %(table)s: %(a)s %(result)s %(b)s") % {
                        "table": match.table,
                        "a": first,
                        "result": result_label(match, chess),
                        "b": second,
                    }
    if not request.htmx:
        if isinstance(question, ConfirmAdvance):
            return _confirm_on_bracket(request, slug, question.match, question.result)
        if question:
            return _ask_on_match_page(request, access, rnd, question)
        if done:
            messages.success(request, done)
        for errors in form.errors.values():
            messages.error(request, " ".join(errors))
        return redirect("org_round", slug=slug, number=number)
    line = DeskLine(table=request.POST.get("table", "").strip()[:12], typed=request.POST.get("result", "").strip()[:40])
    if done:
        line.state, line.text = state, done
        line.label = result_label(match, chess) if state != "cancelled" else ""
    elif question or warning:
        line.state = "asking"  # the line carries the question and its own buttons (round.html: desk-line)
    else:
        line.text = " ".join(e for errors in form.errors.values() for e in errors)
    rnd.refresh_from_db()
    if done and state != "cancelled":
        ctx = round_context(access.event, rnd, row=match)
    else:
        ctx = round_context(access.event, rnd, rows=False)
    if not line.label:
        ctx["m"] = None
    return page(
        request,
        "organiser/round.html",
        access,
        partial="desk-response",
        line=line,
        question=question,
        warning=warning,
        **ctx,
    )


def _confirm_on_bracket(request, slug: str, match: Match, result: str) -> HttpResponse:
    """A top-cut result is confirmed on the bracket page, which asks “Alice beats Bob 2-1?” beside the match."""
    query = urlencode({"enter": match.pk, "result": result})
    return back(request, f"{reverse('org_top_cut', args=[slug])}?{query}#m-{match.pk}")


def _ask_on_match_page(request, access: Access, rnd: Round, question: ConfirmReplace):
    """Without HTMX the question is asked on the match's own page, with the new result filled in."""
    a, b, d = question.outcome.games or (0, 0, 0)
    outcome = question.outcome
    initial = {
        "games_a": a,
        "games_b": b,
        "games_drawn": d,
        "double_loss": outcome.result == Match.Result.DOUBLE_LOSS,
        "forfeit": outcome.winner if outcome.result == Match.Result.FORFEIT else "",
    }
    form = GamesForm(initial=initial, chess=access.event.chess_results)
    return _match_page(request, access, rnd, question.match, form, question)


def _match_page(request, access: Access, rnd: Round, match: Match, form: GamesForm, question=None):
    return page(
        request,
        "organiser/match.html",
        access,
        round=rnd,
        m=match,
        first=match.colour_order()[0],
        second=match.colour_order()[1],
        label=result_label(match, access.event.chess_results),
        form=form,
        question=question,
        # The version the page shows now: a question answered on it replaces exactly what it showed.
        version=question.match.version if question else match.version,
        changes=change_lines(
            match.changes.select_related("by", "player", "match__player_a", "match__player_b"),
            access.event.chess_results,
        ),
        choices=result_choices(
            access.event.best_of, rnd.kind == Round.Kind.ELIMINATION, access.event.chess_results, access.event.draws
        ),
    )


@require_http_methods(["GET", "POST"])
@login_required
def match_page(request: HtmxHttpRequest, slug: str, number: int, match_id: int):
    """Any result (“other…”), and the correction of a stored one (an earlier round's too)."""
    access = event_for(request, slug)
    rnd = round_or_404(access.event, number)
    match = Match.objects.select_related("player_a", "player_b", "round").filter(pk=match_id, round=rnd).first()
    if match is None:
        return _pairings_changed(request, slug, number, match_id)
    form = GamesForm(request.POST or None, chess=access.event.chess_results)
    question = None
    if request.method == "POST" and form.is_valid():
        try:
            replaced = result_label(match, access.event.chess_results)
            confirm = form.cleaned_data["confirm"]
            question = None if confirm else advance_question(match, form.outcome())
            if question is not None:  # a top-cut result: “Alice beats Bob 2-1?” first
                return _match_page(request, access, rnd, match, form, question)
            match = record_result(
                match,
                form.outcome(),
                request.user,
                form.cleaned_data["version"],
                replace=confirm,
                passed=passes(request),
            )
        except Unpassed as w:  # FIDE mode: an adjourned game's result (services/adjourned.py)
            return ask(request, access, w, reverse("org_round", args=[slug, number]) + f"#m-{match.pk}")
        except ConfirmReplace as e:
            match, question = e.match, e
        except ServiceError as e:
            form.add_error(None, str(e))
        else:
            if replaced and replaced != result_label(match, access.event.chess_results):
                text = _(
                    "Table %(table)s of round %(number)s: %(before)s replaced by %(after)s. Standings are updated."
                )
            else:
                text = _("Table %(table)s of round %(number)s: %(after)s saved. Standings are updated.")
            messages.success(
                request,
                text
                % {
                    "table": match.table,
                    "number": number,
                    "before": replaced,
                    "after": result_label(match, access.event.chess_results),
                },
            )
            return back(request, reverse("org_round", args=[slug, number]) + f"#m-{match.pk}")
    return _match_page(request, access, rnd, match, form, question)
