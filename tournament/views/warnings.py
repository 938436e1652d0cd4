"""FIDE mode's warnings on the organiser's pages: the passes a form carries, and the forms that ask for them.

A view whose workflow raised `services.warnings.Unpassed` asks the arbiter to pass its warnings with a form that
posts the same submission again (every field as it came, its once-token included) with the passes added. Two
places ask it, one code (`asking`, the form's facts for `organiser/_warnings.html`):

- `ask`: a page of its own (no script needed; an htmx form gets the page as a whole), "Cancel" going back where
  the form came from;
- in place, where the arbiter is: the results page's row or the desk's line puts `asking(..., target=...)` in
  its own htmx answer (`tournament/views/results.py`), and the form posts back into that row or line.

The service then runs again, under its locks, and either asks what is still to pass (a level-4 warning's second
confirmation) or does the work; a level-5 warning is a refusal (`ServiceError`), never asked.

`submit` is the whole answer of a form whose work asks warnings and runs once (its once-token claimed in the
work's transaction): the question, a repeat, a refusal or the work's message, then back to the page.
"""

from collections.abc import Callable

from django.contrib import messages
from django.db import transaction
from django.http import HttpResponse

from tournament.forms import once
from tournament.services.locks import ServiceError
from tournament.services.warnings import Passed, Unpassed
from tournament.views.access import Access, HtmxHttpRequest
from tournament.views.responses import back, page

# Fields never replayed: the CSRF token is the page's own, the passes are the page's to give.
NOT_REPLAYED = {"csrfmiddlewaretoken", "passed"}


def passes(request: HtmxHttpRequest) -> Passed:
    """The passes the arbiter gave on `ask`'s page (none on the form's first submission)."""
    return frozenset(request.POST.getlist("passed"))


def asking(request: HtmxHttpRequest, unpassed: Unpassed, action: str, cancel_url: str = "", target: str = "") -> dict:
    """What `organiser/_warnings.html` shows and posts to `action`: the warnings still to pass, the submission
    replayed and the passes given so far. `target`: the element an htmx answer replaces (the form then posts with
    htmx; its "Cancel" is a button sending `keep=1` when there is no `cancel_url`)."""
    given = list(passes(request))
    keys = [w.second_key if unpassed.second else w.key for w in unpassed.pending]
    replay = [(k, v) for k in request.POST for v in request.POST.getlist(k) if k not in NOT_REPLAYED]
    return {
        "warnings": unpassed.pending,
        "second": unpassed.second,
        "top": int(max(w.level for w in unpassed.pending)),
        "replay": replay,
        "has_once": any(k == "once" for k, _ in replay),
        "passed": [*given, *keys],
        "action": action,
        "cancel_url": cancel_url,
        "target": target,
    }


def ask(request: HtmxHttpRequest, access: Access, unpassed: Unpassed, cancel_url: str) -> HttpResponse:
    """The page asking the arbiter to pass `unpassed`'s warnings before the form is submitted again."""
    form = asking(request, unpassed, request.get_full_path(), cancel_url)
    response = page(request, "organiser/warnings.html", access, ask=form)
    if request.htmx:  # the whole page, in place of whatever the form's request targeted
        response["HX-Retarget"] = "body"
        response["HX-Reswap"] = "outerHTML"
    return response


def submit(request: HtmxHttpRequest, access: Access, here: str, work: Callable[[Passed], str | None]) -> HttpResponse:
    """Run `work(passes)` once for this submission, in one transaction with its once-token: the warnings it
    raises asked (`ask`, "Cancel" back to `here`), a repeat or a refusal back at `here` (the refusal as an error
    message), and what it returns (a sentence, or None) as the success message."""
    try:
        with transaction.atomic():
            once.claim(request)
            done = work(passes(request))
    except Unpassed as w:
        return ask(request, access, w, here)
    except once.Repeated:
        return back(request, here)
    except ServiceError as e:
        messages.error(request, str(e))
    else:
        if done:
            messages.success(request, done)
    return back(request, here)
