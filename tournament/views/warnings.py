"""FIDE mode's warnings on the organiser's pages: the passes a form carries, and the page that asks for them.

A view whose workflow raised `services.warnings.Unpassed` answers with `ask`: a page that states the warnings
and posts the same form again (every field as it came, its once-token included) with the arbiter's passes
added; "Cancel" goes back where the form came from. No script is needed; an htmx form gets the page as a whole
(the page is not a fragment of the form's). The service then runs again, under its locks, and either asks what
is still to pass (a level-4 warning's second confirmation) or does the work.
"""

from django.http import HttpResponse

from tournament.services.warnings import Level, Passed, Unpassed
from tournament.views.access import Access, HtmxHttpRequest
from tournament.views.responses import page

# Fields never replayed: the CSRF token is the page's own, the passes are the page's to give.
NOT_REPLAYED = {"csrfmiddlewaretoken", "passed"}


def passes(request: HtmxHttpRequest) -> Passed:
    """The passes the arbiter gave on `ask`'s page (none on the form's first submission)."""
    return frozenset(request.POST.getlist("passed"))


def ask(request: HtmxHttpRequest, access: Access, unpassed: Unpassed, cancel_url: str) -> HttpResponse:
    """The page asking the arbiter to pass `unpassed`'s warnings before the form is submitted again."""
    given = list(passes(request))
    keys = [w.second_key if unpassed.second else w.key for w in unpassed.pending]
    replay = [(k, v) for k in request.POST for v in request.POST.getlist(k) if k not in NOT_REPLAYED]
    top = max(w.level for w in unpassed.pending)
    response = page(
        request,
        "organiser/warnings.html",
        access,
        warnings=unpassed.pending,
        second=unpassed.second,
        top=int(top),
        acknowledge_only=top == Level.ACKNOWLEDGE,
        replay=replay,
        has_once=any(k == "once" for k, _ in replay),
        passed=[*given, *keys],
        action=request.get_full_path(),
        cancel_url=cancel_url,
    )
    if request.htmx:  # the whole page, in place of whatever the form's request targeted
        response["HX-Retarget"] = "body"
        response["HX-Reswap"] = "outerHTML"
    return response
