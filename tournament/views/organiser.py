"""The organiser's events: the list, a new event, the event's home page, its settings and its standings.
Every view starts with `event_for` (404 for outsiders, 403 for judges on organiser-only actions); one
template per page, htmx requests get a named partial of it."""

import dataclasses

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.db import transaction
from django.db.models import Count, Prefetch, Q
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from tournament.forms import once
from tournament.forms.event import TIEBREAKER_CHOICES, EventCreateForm, EventSettingsForm, StaffForm
from tournament.forms.files import EventFileForm
from tournament.forms.sections import TRFUploadForm
from tournament.jobs import workflow as jobs
from tournament.models import Event, EventRole, Match, Round
from tournament.pages.jobs import job_context
from tournament.pages.round import round_lines
from tournament.pages.sections import sections_panel
from tournament.pages.standings import standings_tables
from tournament.services import forbidden
from tournament.services.adjourned import final_blocked
from tournament.services.divisions import joined_into
from tournament.services.fide import tiebreaks_changed
from tournament.services.locks import ServiceError, awaiting_result, changed, lock_event, log
from tournament.services.rounds import recommended_rounds
from tournament.services.staff import claim_invites, create_event, new_event_zone
from tournament.services.standings import tiebreak_rules
from tournament.services.top_cut import final_placings, placings_by_division
from tournament.services.warnings import Unpassed
from tournament.text import l10n
from tournament.text.wording import recent_actions
from tournament.views.access import ORGANISER, HtmxHttpRequest, creates_events, event_for, heavy, may_create_events
from tournament.views.responses import back, page, save_changed
from tournament.views.sections import sections_index
from tournament.views.warnings import ask, passes


@require_GET
@login_required
def event_list(request: HtmxHttpRequest):
    claim_invites(request.user)
    # Sections show under their event, never as events of their own (docs/sections.md).
    sections = Prefetch("event__sections", queryset=Event.objects.order_by("position", "id"))
    roles = (
        EventRole.objects.filter(user=request.user, event__parent__isnull=True)
        .select_related("event")
        .prefetch_related(sections)
        .order_by("-event__date")
    )
    return page(request, "organiser/event_list.html", None, roles=roles, may_create=may_create_events(request.user))


@require_http_methods(["GET", "POST"])
@login_required
@creates_events
@heavy
def event_new(request: HtmxHttpRequest):
    zone = new_event_zone(request.user, _own_language(request))
    form = EventCreateForm(request.POST or None, initial={"time_zone": zone})
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                submission = once.claim(request)
                event = form.save(commit=False)
                # Set up as the organiser works: in the language they use, in the zone the form shows (their last
                # venue's, else their language's venues'), unless the post leaves the field out (an older page).
                event.language = _own_language(request)
                if "time_zone" not in request.POST:
                    event.time_zone = zone
                event = create_event(event, request.user)
                once.done(submission, reverse("org_players", args=[event.slug]))
        except once.Repeated as r:
            messages.info(request, _("That event was created already."))
            return redirect(r.outcome or reverse("event_list"))
        except ServiceError as e:
            form.add_error(None, str(e))
        else:
            messages.success(request, _("%(name)s is created. Add the players next.") % {"name": event.name})
            return redirect("org_players", slug=event.slug)
    return page(
        request, "organiser/event_new.html", None, form=form, trf_form=TRFUploadForm(), file_form=EventFileForm()
    )


def _own_language(request: HtmxHttpRequest) -> str:
    language = translation.get_language() or ""
    return language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


@require_GET
@login_required
def event_home(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug)
    event = access.event
    rounds = list(
        event.rounds.annotate(
            missing=Count("matches", filter=awaiting_result("matches__")),
            # A bye or an unpaired loss takes no table.
            tables=Count("matches", filter=Q(matches__player_b__isnull=False)),
        ).order_by("number")
    )
    counts = event.players.aggregate(total=Count("id"), active=Count("id", filter=Q(dropped_after__isnull=True)))
    last = rounds[-1] if rounds else None
    recommendation = recommended_rounds(event)
    # Who the next pairing leaves out: the byes asked for that round (a half point, or none for an absence).
    following = last.number + 1 if last else 1
    asked = event.players.filter(requested_byes__has_key=str(following), dropped_after__isnull=True)
    return page(
        request,
        "organiser/event_home.html",
        access,
        rounds=round_lines(event, rounds),
        last=last,
        counts=counts,
        swiss_done=sum(1 for r in rounds if r.kind == Round.Kind.SWISS),
        top_cut_started=any(r.kind == Round.Kind.ELIMINATION for r in rounds),
        placings=final_placings(event) if last and last.kind == Round.Kind.ELIMINATION else None,
        recommendation=recommendation,
        planned=event.planned_rounds or (recommendation.rounds if recommendation else None),
        log=recent_actions(event),
        joined_into=joined_into(event),
        following=following,
        requested=[(p, "½" if p.requested_bye(following) == Match.Result.HALF_BYE else "0") for p in asked],
        **job_context(jobs.shown(event)),
        **({} if event.is_section else sections_panel(event)),
        may_create=may_create_events(request.user),  # sections are added by an account that may create events
    )


def _tiebreaker_edit(data) -> tuple[object, str | None]:
    """Apply a move/add/remove button of the tie-breaker list to the posted data; None when not one."""
    codes = data.getlist("tiebreakers")
    action = next((k for k in ("tb_up", "tb_down", "tb_remove", "tb_add") if k in data), None)
    if action is None:
        return data, None
    if action == "tb_add":
        code = data.get("tb_new")
        if code and code not in codes:
            codes.append(code)
    else:
        i = _index(data.get(action))
        if 0 <= i < len(codes):
            if action == "tb_remove":
                codes.pop(i)
            elif action == "tb_up" and i > 0:
                codes[i - 1], codes[i] = codes[i], codes[i - 1]
            elif action == "tb_down" and i < len(codes) - 1:
                codes[i + 1], codes[i] = codes[i], codes[i + 1]
    data = data.copy()
    data.setlist("tiebreakers", codes)
    return data, action


def _index(text: str | None) -> int:
    """A list position from a button's value; -1 (no position) for anything that is not a small number."""
    text = (text or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 6 else -1


@require_http_methods(["GET", "POST"])
@login_required
def event_settings(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug, need=ORGANISER)
    event = access.event
    locked = event.rounds.exists()
    data, edit = _tiebreaker_edit(request.POST) if request.method == "POST" else (None, None)
    shown = _shown(event, locked)  # before a bound form writes what was posted onto the instance
    form = EventSettingsForm(data, instance=event, locked=locked)
    if request.method == "POST" and edit is None:
        # Under the event's lock, which pairing takes too: what is locked, and what changed since the page
        # was loaded, are read as they are now, and nothing changes between that check and the save.
        try:
            with transaction.atomic():
                event = lock_event(event)
                access = dataclasses.replace(access, event=event)
                locked = event.rounds.exists()
                shown = _shown(event, locked)
                data, stale = _as_it_is_now(data, request.POST.get("loaded"), event, locked, shown)
                form = EventSettingsForm(data, instance=event, locked=locked)
                if form.is_valid() and not stale:
                    # FIDE mode: a new tie-break list after round 1 is a level-4 warning (rolls back until passed).
                    old = list(form.initial.get("tiebreakers") or [])
                    tiebreaks_changed(event, request.user, old, form.cleaned_data["tiebreakers"], passes(request))
                    _save_settings(request, form, event, locked)
                    return back(request, reverse("org_settings", args=[slug]))
                for message in _stale_messages(form, stale):
                    form.add_error(None, message)
        except Unpassed as w:
            return ask(request, access, w, reverse("org_settings", args=[slug]))
    chosen = form["tiebreakers"].value() or []
    return page(
        request,
        "organiser/settings.html",
        access,
        partial="settings-form",
        form=form,
        locked=locked,
        loaded=signing.dumps(shown, salt=_LOADED, compress=True),
        chosen=[(c, l10n.label(c), l10n.NAMES.get(c, "")) for c in chosen],
        addable=[(c, label, l10n.NAMES.get(c, "")) for c, label in TIEBREAKER_CHOICES if c not in chosen],
        tiebreak_rules=tiebreak_rules(event),
        # Staff are the venue's: a section's settings show and change the event's (docs/sections.md).
        staff_form=StaffForm(event=event.root),
        recommendation=recommended_rounds(event),
        staff=event.root.roles.select_related("user").order_by("role", "user__username"),
        invites=event.root.invites.all(),
        invite_days=settings.STAFF_INVITE_DAYS,
        forbidden_pairs=forbidden.named(event) if event.chess_results else [],
    )


def _save_settings(request: HtmxHttpRequest, form: EventSettingsForm, event: Event, locked: bool) -> None:
    changed_locked = form.changed_locked()
    was_reporting = form.initial["reporting"]
    save_changed(form)
    if "time_zone" in form.changed_data and not event.parent_id:
        # The zone is the venue's: every section shows its times (and the event's log its actions) in it.
        event.sections.update(time_zone=event.time_zone)
    if event.reporting != was_reporting:  # logged as the round page's switch logs it
        log(event, "reporting", request.user, mode=event.reporting, was=was_reporting)
    if locked and changed_locked:
        log(event, "settings_after_pairing", request.user, fields=changed_locked)
        messages.warning(request, _("Scoring or tie-breakers changed after pairing; the change is logged."))
    changed(event)
    messages.success(request, _("Settings saved."))


# The settings form carries what it showed when it was loaded (signed), so that a save can tell what changed
# since: round 1 paired (which locks scoring and fixes the initial colour), or a field saved by someone else.
_LOADED = "org-settings-loaded"


def _shown(event: Event, locked: bool) -> dict[str, str]:
    form = EventSettingsForm(instance=event, locked=locked)
    shown = {name: _as_text(form[name].value()) for name in form.fields if name != "confirm_locked"}
    return shown | {"locked": str(locked)}


def _as_text(value) -> str:
    if isinstance(value, list | tuple):
        return "|".join(map(str, value))
    return "" if value is None else str(value)


def _as_it_is_now(data, loaded: str | None, event: Event, locked: bool, now: dict[str, str]):
    """The posted form merged with what changed since it was loaded, and the fields in conflict.

    A field someone else changed meanwhile (or pairing did: the initial colour) that this form left as it
    showed it takes its value now; a field changed both here and there is a conflict: the form keeps what
    was typed here, and the save is refused once with the field named. The form is then validated as things
    are now (locked or not). A form without what it showed (an older page, a script) is checked as it is.
    """
    if not loaded:
        return data, []
    try:
        then = signing.loads(loaded, salt=_LOADED)
    except signing.BadSignature:
        then = {}
    posted = EventSettingsForm(data, instance=event, locked=locked)
    current = EventSettingsForm(instance=event, locked=locked)
    data, conflicts = data.copy(), []
    for name, value in now.items():
        if name not in posted.fields or then.get(name) == value or posted.fields[name].disabled:
            continue
        if _as_text(posted[name].value()) != then.get(name):
            conflicts.append(name)
            continue
        value = current[name].value()
        if isinstance(value, list | tuple):
            data.setlist(name, [str(v) for v in value])
        elif value is True:
            data[name] = "on"
        elif value is False:
            data.pop(name, None)
        else:
            data[name] = _as_text(value)
    return data, conflicts


def _stale_messages(form: EventSettingsForm, conflicts: list[str]) -> list[str]:
    fields = [str(form.fields[name].label) for name in conflicts]
    if not fields:
        return []
    message = _(
        "Changed by someone else since this page was loaded: %(fields)s. Nothing was saved; your values are "
        "still in the form: save again to keep them."
    )
    return [message % {"fields": l10n.join(fields)}]


@require_GET
@login_required
def standings_page(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug)
    if access.event.sections.exists():
        return sections_index(request, access, _("Standings"))
    shown, labels, tables = standings_tables(access.event)
    return page(
        request,
        "organiser/standings.html",
        access,
        shown=shown,
        result=shown.standings,
        labels=labels,
        tables=tables,
        placings=placings_by_division(access.event),
        not_final=final_blocked(access.event),
        tiebreak_rules=tiebreak_rules(access.event),
    )
