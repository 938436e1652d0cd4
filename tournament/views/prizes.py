"""The organiser's prize list (docs/prizes.md): the form that sets it (organisers only), the printable list of
who takes what, and its CSV."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournament.files import csv_exports
from tournament.forms import once
from tournament.forms.prizes import PrizeListForm, initial_of
from tournament.records.prize_lists import prize_list_of
from tournament.services.locks import lock_event
from tournament.services.prizes import (
    event_awards,
    event_over,
    how_text,
    prizes_csv,
    remainder_text,
    rows_of,
    save_prize_list,
    what_text,
)
from tournament.views.access import ORGANISER, HtmxHttpRequest, event_for
from tournament.views.responses import back, page


@login_required
def prize_list(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug, need=ORGANISER)
    event = access.event
    here = reverse("org_prizes", args=[slug])
    if request.method == "POST":
        form = PrizeListForm(request.POST)
        if form.is_valid():
            try:
                with transaction.atomic():
                    once.claim(request)
                    save_prize_list(lock_event(event), form.cleaned_data["prizes"], form.cleaned_data["rules"])
            except once.Repeated:
                return back(request, here)
            messages.success(request, _("The prize list is saved."))
            return back(request, here)
    else:
        form = PrizeListForm(initial=initial_of(*prize_list_of(event)))
    return page(request, "organiser/prizes.html", access, form=form, **_awards_context(event))


def _awards_context(event) -> dict:
    awards = event_awards(event)
    if awards is None:
        return {"awards": None, "over": event_over(event)}
    rows = [
        {"row": r, "what": what_text(r.award, r.money, r.items, awards.rules), "how": how_text(r.award)}
        for r in rows_of(event, awards)
    ]
    remainders = [(a.name, remainder_text(a, awards.rules)) for a in awards.awards if remainder_text(a, awards.rules)]
    return {"awards": awards, "rows": rows, "remainders": remainders, "over": event_over(event)}


@require_GET
@login_required
def print_prizes(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug)
    return render(request, "print/prizes.html", {"event": access.event, **_awards_context(access.event)})


@require_GET
@login_required
def export_prizes(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug)
    awards = event_awards(access.event)
    content = prizes_csv(access.event, awards) if awards is not None else ""
    language = get_language()
    response = HttpResponse(csv_exports.BOM + content, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{access.event.slug}-prizes-{language}.csv"'
    response["Content-Language"] = language
    return response
