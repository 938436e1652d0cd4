"""Sections, the organiser's side (docs/sections.md): adding a section to an event, a section's placement rules
and tables, placing the event's unplaced players by the rules, and moving a player to another section (or,
once paired, withdrawing them and entering them again there)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from tournament.forms.sections import PlaceForm, SectionForm, SectionRulesForm
from tournament.models import Event, Player
from tournament.pages.sections import section_states
from tournament.services.locks import ServiceError
from tournament.services.sections import (
    add_section,
    move_player,
    place_unplaced,
    reenter_player,
    table_ranges,
    update_section,
)
from tournament.text import l10n
from tournament.views.access import ORGANISER, HtmxHttpRequest, event_for
from tournament.views.responses import back, page


def _home(slug: str) -> str:
    return reverse("org_event", args=[slug]) + "#sections"


@require_POST
@login_required
def section_add(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug, need=ORGANISER)
    if access.event.is_section:
        messages.error(request, _("A section has no sections of its own: add them on the event's page."))
        return back(request, reverse("org_event", args=[slug]))
    form = SectionForm(request.POST)
    if form.is_valid():
        try:
            section = add_section(access.event, form.cleaned_data["name"], request.user, **form.settings())
        except ServiceError as e:
            messages.error(request, str(e))
        else:
            messages.success(request, _("Section “%(name)s” is added.") % {"name": section.name})
    else:
        messages.error(request, l10n.join_errors([e for errors in form.errors.values() for e in errors]))
    return back(request, _home(slug))


@require_http_methods(["GET", "POST"])
@login_required
def section_rules(request: HtmxHttpRequest, slug: str):
    """A section's placement rules and first table: saved from the event's page (or this page's own form); a
    refusal shows this page with the values as typed and what is wrong."""
    access = event_for(request, slug, need=ORGANISER)
    section = access.event
    home = _home(section.root.slug)
    if not section.is_section:
        return back(request, home)
    form = SectionRulesForm(request.POST or None, instance=section, prefix=f"s{section.pk}")
    if request.method == "POST" and form.is_valid():
        try:
            update_section(Event.objects.get(pk=section.pk), request.user, **form.cleaned_data)
        except ServiceError as e:
            form.add_error(None, str(e))
        else:
            messages.success(request, _("Section “%(name)s”: saved.") % {"name": section.name})
            return back(request, home)
    return page(
        request, "organiser/section_rules.html", access, form=form, tables=table_ranges(section.root)[section.pk]
    )


@require_POST
@login_required
def place_by_rules(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug, need=ORGANISER)
    try:
        placed, left = place_unplaced(access.event, request.user)
    except ServiceError as e:
        messages.error(request, str(e))
        return back(request, reverse("org_players", args=[slug]))
    if placed:
        where = l10n.join(_("%(count)s in “%(name)s”") % {"count": n, "name": name} for name, n in placed.items())
        messages.success(request, _("Placed by the rules: %(where)s.") % {"where": where})
    if left:
        messages.warning(
            request,
            ngettext(
                "%(count)d player fits no section's rules: place them by hand.",
                "%(count)d players fit no section's rules: place them by hand.",
                left,
            )
            % {"count": left},
        )
    if not placed and not left:
        messages.info(request, _("Every player is placed in a section."))
    return back(request, reverse("org_players", args=[slug]))


@require_POST
@login_required
def player_section(request: HtmxHttpRequest, slug: str, player_id: int):
    """Move a player to another section (before their section pairs them), or withdraw them and enter them
    again there (`reenter`: after)."""
    access = event_for(request, slug, need=ORGANISER)
    player = get_object_or_404(Player.objects.select_related("event"), pk=player_id, event=access.event)
    root = access.event.root
    form = PlaceForm(request.POST, sections=root.section_list)
    target = form.chosen() if form.is_valid() else None
    if target is None:
        messages.error(request, _("Choose a section."))
        return back(request, reverse("org_player_edit", args=[slug, player.pk]))
    try:
        if request.POST.get("reenter"):
            new, notes = reenter_player(player, target, request.user)
            messages.success(
                request,
                _("%(name)s is withdrawn from “%(from)s” and entered in “%(to)s” as #%(number)s.")
                % {"name": player.name, "from": access.event.name, "to": target.name, "number": new.number},
            )
            url = reverse("org_player_edit", args=[target.slug, new.pk])
        else:
            notes = move_player(player, target, request.user)
            messages.success(request, _("%(name)s is moved to “%(to)s”.") % {"name": player.name, "to": target.name})
            url = reverse("org_player_edit", args=[target.slug, player.pk])
    except ServiceError as e:
        messages.error(request, str(e))
        return back(request, reverse("org_player_edit", args=[slug, player.pk]))
    for note in notes:
        messages.warning(request, note)
    return back(request, url)


def sections_index(request: HtmxHttpRequest, access, title: str):
    """The standings or top-cut page of an event with sections, which ranks nobody itself: each section with where
    it is in its day and the way to its own standings, top cut and prints (a joined section's lead to its
    partner's, where its players are ranked)."""
    sections = section_states(access.event)
    return page(request, "organiser/sections_index.html", access, sections=sections, title=title)
