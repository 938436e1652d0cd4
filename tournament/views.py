"""Organiser and judge pages. Every view starts with `event_for` (404 for outsiders, 403 for judges on
organiser-only actions); one template per page, HTMX requests get a named partial of it."""

import hashlib
import json
import math
import uuid

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import Count, F, Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

import standings
from standings import eventfile as ef
from tournament import csvio, engine_text, l10n, names, once, results_board, services
from tournament.access import ORGANISER, Access, HtmxHttpRequest, event_for
from tournament.eventio import event_to_file
from tournament.forms import (
    TIEBREAKER_CHOICES,
    ClockForm,
    CsvConfirmForm,
    CsvUploadForm,
    EventCreateForm,
    EventSettingsForm,
    PasteForm,
    PlayerForm,
    QuickAddForm,
    StaffForm,
    SwapForm,
    TableResultForm,
    TRFUploadForm,
)
from tournament.models import Event, EventRole, Match, Player, ResultChange, Round
from tournament.names import Names
from tournament.services import ServiceError
from tournament.views_public import qr_svg
from tournament.wording import recent_actions


def page(request: HtmxHttpRequest, template: str, access: Access | None, partial: str | None = None, **context):
    """Render a page, or only its named partial for an HTMX request; every event page shows the clock."""
    if access is not None:
        event = access.event
        context.setdefault("current", services.current_round(event))
        context.update(event=event, access=access)
    context.setdefault("once", uuid.uuid4().hex)
    if request.htmx and partial:
        template += f"#{partial}"
    return render(request, template, context)


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


def snapshot_label(snap: dict | None) -> str:
    if not snap:
        return "none"
    if snap.get("games"):
        a, b, d = snap["games"]
        return f"{a}-{b}-{d}" if d else f"{a}-{b}"
    return snap.get("result", "").replace("_", " ")


def labelled(changes) -> list[ResultChange]:
    changes = list(changes)
    for c in changes:
        c.before_label, c.after_label = snapshot_label(c.before), snapshot_label(c.after)
    return changes


def _round(event: Event, number: int) -> Round:
    return get_object_or_404(Round, event=event, number=number)


# ---------------------------------------------------------------- events


@require_GET
@login_required
def event_list(request: HtmxHttpRequest):
    services.claim_invites(request.user)
    roles = EventRole.objects.filter(user=request.user).select_related("event").order_by("-event__date")
    return page(request, "organiser/event_list.html", None, roles=roles)


@require_http_methods(["GET", "POST"])
@login_required
def event_new(request: HtmxHttpRequest):
    form = EventCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                submission = once.claim(request)
                event = services.create_event(form.save(commit=False), request.user)
                once.done(submission, reverse("org_players", args=[event.slug]))
        except once.Repeated as r:
            messages.info(request, _("That event was created already."))
            return redirect(r.outcome or reverse("event_list"))
        except ServiceError as e:
            form.add_error(None, str(e))
        else:
            messages.success(request, _("%(name)s is created. Add the players next.") % {"name": event.name})
            return redirect("org_players", slug=event.slug)
    return page(request, "organiser/event_new.html", None, form=form, trf_form=TRFUploadForm())


@require_GET
@login_required
def event_home(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug)
    event = access.event
    rounds = list(
        event.rounds.annotate(
            missing=Count("matches", filter=Q(matches__result=Match.Result.PLAYED, matches__games_a__isnull=True)),
            # A bye or an unpaired loss takes no table.
            tables=Count("matches", filter=Q(matches__player_b__isnull=False)),
        ).order_by("number")
    )
    for r in rounds:
        r.stage = services.stage_name(r.tables) if r.kind == Round.Kind.ELIMINATION else ""
    counts = event.players.aggregate(total=Count("id"), active=Count("id", filter=Q(dropped_after__isnull=True)))
    last = rounds[-1] if rounds else None
    recommendation = services.recommended_rounds(event)
    return page(
        request,
        "organiser/event_home.html",
        access,
        rounds=rounds,
        last=last,
        counts=counts,
        swiss_done=sum(1 for r in rounds if r.kind == Round.Kind.SWISS),
        top_cut_started=any(r.kind == Round.Kind.ELIMINATION for r in rounds),
        placings=services.final_placings(event) if last and last.kind == Round.Kind.ELIMINATION else None,
        recommendation=recommendation,
        planned=event.planned_rounds or (recommendation.rounds if recommendation else None),
        log=recent_actions(event),
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
    form = EventSettingsForm(data, instance=event, locked=locked)
    if request.method == "POST" and edit is None and form.is_valid():
        changed_locked = form.changed_locked()
        _save_changed(form)
        if locked and changed_locked:
            services.log(event, "settings_after_pairing", request.user, fields=changed_locked)
            messages.warning(request, _("Scoring or tie-breakers changed after pairing; the change is logged."))
        services.changed(event)
        messages.success(request, _("Settings saved."))
        return back(request, reverse("org_settings", args=[slug]))
    chosen = form["tiebreakers"].value() or []
    return page(
        request,
        "organiser/settings.html",
        access,
        partial="settings-form",
        form=form,
        locked=locked,
        chosen=[(c, l10n.label(c), l10n.NAMES.get(c, "")) for c in chosen],
        addable=[(c, label, l10n.NAMES.get(c, "")) for c, label in TIEBREAKER_CHOICES if c not in chosen],
        staff_form=StaffForm(event=event),
        recommendation=services.recommended_rounds(event),
        staff=event.roles.select_related("user").order_by("role", "user__username"),
        invites=event.invites.all(),
        invite_days=settings.STAFF_INVITE_DAYS,
    )


# ---------------------------------------------------------------- players


def _players_context(event: Event):
    # Alphabetical by reading when a player has one (a kanji name sorts as it is read).
    players = sorted(event.players.all(), key=lambda p: (p.sort_key, p.pk))
    same_name = {}
    for p in players:
        same_name.setdefault(names.fold(p.name), []).append(p)
    active = [p for p in players if p.is_active]
    return {
        "players": players,
        "duplicates": {p.pk for group in same_name.values() if len(group) > 1 for p in group},
        "active_count": len(active),
        "paired": services.paired_players(event),
        "recommendation": services.recommended_rounds(event, active),
    }


@require_GET
@login_required
def players(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug)
    return page(
        request,
        "organiser/players.html",
        access,
        partial="roster",
        add_form=QuickAddForm(),
        paste_form=PasteForm(),
        csv_form=CsvUploadForm(),
        **_players_context(access.event),
    )


@require_POST
@login_required
def player_add(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug, need=ORGANISER)
    form = QuickAddForm(request.POST)
    added = None
    if form.is_valid():
        try:
            with transaction.atomic():
                once.claim(request)
                added, notes = services.add_player(
                    access.event, request.user, name=form.cleaned_data["name"], reading=form.reading, rating=form.rating
                )
        except once.Repeated:
            if not request.htmx:
                return redirect("org_players", slug=slug)
            form = QuickAddForm()
        except ServiceError as e:
            form.add_error("name", str(e))
        else:
            for note in notes:
                messages.warning(request, note)
            if not request.htmx:
                messages.success(request, _("Added %(player)s.") % {"player": added})
                return redirect("org_players", slug=slug)
            form = QuickAddForm()
    if not request.htmx:
        return page(
            request,
            "organiser/players.html",
            access,
            add_form=form,
            paste_form=PasteForm(),
            csv_form=CsvUploadForm(),
            **_players_context(access.event),
        )
    return page(
        request,
        "organiser/players.html",
        access,
        partial="roster",
        add_form=form,
        added=added,
        **_players_context(access.event),
    )


def _add_many(request, event: Event, rows: list[services.NewPlayer], token: str | None = None) -> int:
    """Add the rows once: a repeat of this submission (`token`, else the form's own) raises `once.Repeated`."""
    with transaction.atomic():
        once.claim(request, token)
        added, notes = services.add_players(event, request.user, rows)
    for note in notes:
        messages.warning(request, note)
    return len(added)


@require_POST
@login_required
def players_paste(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug, need=ORGANISER)
    form = PasteForm(request.POST)
    if form.is_valid():
        try:
            n = _add_many(request, access.event, csvio.new_players(form.rows))
        except once.Repeated:
            messages.info(request, _("Those players were added already."))
            return back(request, reverse("org_players", args=[slug]))
        except ServiceError as e:
            messages.error(request, str(e))
        else:
            messages.success(request, ngettext("Added %(count)d player.", "Added %(count)d players.", n) % {"count": n})
            return back(request, reverse("org_players", args=[slug]))
    return page(
        request,
        "organiser/players.html",
        access,
        add_form=QuickAddForm(),
        paste_form=form,
        csv_form=CsvUploadForm(),
        **_players_context(access.event),
    )


@require_POST
@login_required
def players_csv(request: HtmxHttpRequest, slug: str):
    """Step 1 of a CSV import: a preview marking bad rows; nothing is written."""
    access = event_for(request, slug, need=ORGANISER)
    form = CsvUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return page(
            request,
            "organiser/players.html",
            access,
            add_form=QuickAddForm(),
            paste_form=PasteForm(),
            csv_form=form,
            **_players_context(access.event),
        )
    text = form.cleaned_data["file"]
    return _csv_preview(request, access, text)


PREVIEW_ROWS = 500


def _csv_preview(request, access: Access, text: str):
    existing = set(access.event.players.values_list("name", flat=True))
    rows = csvio.parse_players(text, existing)
    # A 50,000-row file is checked whole, but the page shows the bad rows and the first good ones.
    shown = rows
    if len(rows) > PREVIEW_ROWS:
        shown = sorted(sorted(rows, key=lambda r: r.ok)[:PREVIEW_ROWS], key=lambda r: r.line)
    return page(
        request,
        "organiser/csv_preview.html",
        access,
        rows=shown,
        hidden=len(rows) - len(shown),
        good=sum(1 for r in rows if r.ok),
        bad=sum(1 for r in rows if not r.ok),
        confirm_form=CsvConfirmForm(initial={"text": text}),
    )


@require_POST
@login_required
def players_csv_confirm(request: HtmxHttpRequest, slug: str):
    """Step 2: import the previewed file: every row or, if any row is bad, nothing."""
    access = event_for(request, slug, need=ORGANISER)
    form = CsvConfirmForm(request.POST)
    # The file comes back exactly as previewed: a NUL in it marks its row bad, not the whole file.
    form.fields["text"].validators.clear()
    if not form.is_valid():
        too_large = form.errors.get("text") and form.data.get("text")
        messages.error(request, form.errors["text"][0] if too_large else "The preview expired; upload the file again.")
        return back(request, reverse("org_players", args=[slug]))
    text = form.cleaned_data["text"]
    rows = csvio.parse_players(text)
    bad = [r for r in rows if not r.ok]
    if bad:
        # A file malformed anywhere writes nothing: a half-imported roster is worse than none.
        first = bad[0]
        messages.error(
            request,
            (
                _("Nothing was imported: line %(line)s: %(errors)s.")
                if len(bad) == 1
                else ngettext(
                    "Nothing was imported: line %(line)s: %(errors)s (and %(more)s more bad line).",
                    "Nothing was imported: line %(line)s: %(errors)s (and %(more)s more bad lines).",
                    len(bad) - 1,
                )
            )
            % {"line": first.line, "errors": "; ".join(first.errors), "more": len(bad) - 1}
            + " "
            + _("Fix the file and upload it again."),
        )
        return back(request, reverse("org_players", args=[slug]))
    # One file is imported once into one event, however often (or however simultaneously) it is confirmed.
    digest = hashlib.sha256(f"{access.event.pk}:{text}".encode()).hexdigest()
    try:
        n = _add_many(request, access.event, csvio.new_players(rows), token=f"csv:{digest}")
    except once.Repeated:
        messages.info(request, _("This file was imported already; nothing was added again."))
        return back(request, reverse("org_players", args=[slug]))
    except ServiceError as e:
        messages.error(request, str(e))
        return back(request, reverse("org_players", args=[slug]))
    messages.success(request, ngettext("Imported %(count)d player.", "Imported %(count)d players.", n) % {"count": n})
    return back(request, reverse("org_players", args=[slug]))


@require_http_methods(["GET", "POST"])
@login_required
def player_edit(request: HtmxHttpRequest, slug: str, player_id: int):
    access = event_for(request, slug, need=ORGANISER)
    player = get_object_or_404(Player, pk=player_id, event=access.event)
    form = PlayerForm(request.POST or None, instance=player)
    if request.method == "POST" and form.is_valid():
        if form.has_changed():
            _save_changed(form)
            services.changed(access.event)
        if access.event.players.filter(name__iexact=player.name).exclude(pk=player.pk).exists():
            messages.warning(request, _("There is another player called %(name)s.") % {"name": player.name})
        messages.success(request, _("Saved %(player)s.") % {"player": player})
        return back(request, reverse("org_players", args=[slug]))
    history = (
        Match.objects.filter(Q(player_a=player) | Q(player_b=player))
        .select_related("round", "player_a", "player_b")
        .order_by("round__number")
    )
    return page(
        request,
        "organiser/player_edit.html",
        access,
        form=form,
        player=player,
        history=history,
        deletable=player.pk not in services.paired_players(access.event),
    )


def player_confirm(request: HtmxHttpRequest, access: Access, player: Player, action: str, error: str = ""):
    """The page that asks before a drop or a delete, saying what it does."""
    current = services.current_round(access.event)
    return page(
        request,
        "organiser/player_confirm.html",
        access,
        player=player,
        action=action,
        after_round=current.number if current else 0,
        deletable=player.pk not in services.paired_players(access.event),
        error=error,
    )


@require_http_methods(["GET", "POST"])
@login_required
def player_drop(request: HtmxHttpRequest, slug: str, player_id: int):
    """GET asks to confirm (a drop takes the player out of every later pairing); POST drops."""
    access = event_for(request, slug, need=ORGANISER)
    player = get_object_or_404(Player, pk=player_id, event=access.event)
    if request.method == "GET":
        return player_confirm(request, access, player, "drop")
    if player.is_active:
        services.drop_player(player, request.user)
        messages.success(
            request, _("%(name)s dropped after round %(round)s.") % {"name": player, "round": player.dropped_after}
        )
        draft = Round.objects.filter(event=access.event, state=Round.State.DRAFT, seats__player=player).first()
        if draft:
            messages.warning(
                request,
                _("%(name)s is in the draft of round %(round)s: pair it again.")
                % {"name": player, "round": draft.number},
            )
    return back(request, _next(request, reverse("org_players", args=[slug])))


@require_POST
@login_required
def player_undrop(request: HtmxHttpRequest, slug: str, player_id: int):
    access = event_for(request, slug, need=ORGANISER)
    player = get_object_or_404(Player, pk=player_id, event=access.event)
    if not player.is_active:
        services.undrop_player(player, request.user)
        messages.success(request, _("%(name)s is back in the event and will be paired again.") % {"name": player})
    return back(request, reverse("org_players", args=[slug]))


# ---------------------------------------------------------------- rounds


@require_POST
@login_required
def round_pair(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug, need=ORGANISER)
    try:
        rnd = services.pair_next_round(access.event, request.user)
    except ServiceError as e:
        messages.error(request, str(e))
        return back(request, reverse("org_event", args=[slug]))
    messages.success(
        request, _("Round %(number)s is paired as a draft. Check it, then publish it.") % {"number": rnd.number}
    )
    return back(request, reverse("org_round", args=[slug, rnd.number]))


def result_choices(best_of: int, elimination: bool) -> list[tuple[str, str]]:
    """The one-click results of a match format: every winning score, then the draws."""
    need = math.ceil(best_of / 2)
    wins_a = [(f"{need}-{j}", f"{need}-{j}") for j in range(need)]
    wins_b = [(f"{j}-{need}", f"{j}-{need}") for j in reversed(range(need))]
    choices = wins_a + wins_b
    if not elimination:
        if best_of == 1:
            choices.append(("0-0-1", _("Draw")))
        else:
            choices += [
                ("1-1", _("1-1 draw")),
                (f"0-0-{best_of}", _("0-0-%(n)s ID") % {"n": best_of}),  # an intentional draw
            ]
    return choices


def _round_context(
    event: Event, rnd: Round, view: str = "default", q: str = "", start: int = 1, rows: bool = True, row=None
):
    """The results page: the counts, and the rows of `view` (none when `rows` is false); `row`: the one
    match an HTMX answer shows, prepared like a row of the page."""
    elimination = rnd.kind == Round.Kind.ELIMINATION
    choices = result_choices(event.best_of, elimination)
    if rows and row is None:
        overview = results_board.overview(rnd, view, q, start)
    else:
        counts = results_board.counts(rnd)
        overview = results_board.Overview(counts, [], [], counts.total > results_board.LARGE_ROUND, view, start, q)
    board = results_board.Rows(event, rnd, choices)
    board.prepare_all([*overview.matches, *overview.attention, *([row] if row is not None else [])])
    latest = event.rounds.order_by("-number").values_list("number", flat=True).first()
    return {
        "round": rnd,
        "stage": services.stage_name(overview.counts.matches) if elimination else "",
        "matches": overview.matches,
        "overview": overview,
        "missing": overview.counts.outstanding,
        "entered": overview.counts.entered,
        "only_outstanding": overview.view == "outstanding",
        "choices": choices,
        "shorthands": services.shorthands(event.best_of, elimination),
        "is_latest": rnd.number == latest,
        "seconds_left": rnd.seconds_left(),
    }


@require_GET
@login_required
def round_page(request: HtmxHttpRequest, slug: str, number: int):
    access = event_for(request, slug)
    event = access.event
    rnd = _round(event, number)
    if rnd.state == Round.State.DRAFT and rnd.kind == Round.Kind.ELIMINATION:
        return redirect("org_top_cut", slug=slug)
    if rnd.state == Round.State.DRAFT:
        return _draft_page(request, access, rnd)
    view = "outstanding" if request.GET.get("outstanding") == "1" else request.GET.get("view", "default")
    start = request.GET.get("from", "1")
    part = request.GET.get("part")
    q = request.GET.get("q", "").replace("\x00", "")[:60]  # PostgreSQL text cannot hold NUL: a search never finds it
    partial = "outstanding" if part == "outstanding" else "matches"
    first = int(start) if start.isdigit() and len(start) < 7 else 1
    ctx = _round_context(event, rnd, view, q, first, rows=partial == "matches")
    return page(
        request,
        "organiser/round.html",
        access,
        partial=partial,
        rounds=event.rounds.order_by("number"),
        table_form=TableResultForm(),
        reporting_choices=Event.Reporting.choices,
        drops=results_board.phone_drops(event, rnd),
        changes=labelled(
            ResultChange.objects.filter(match__round=rnd, before__isnull=False).select_related(
                "by", "match__player_a", "match__player_b"
            )[:50]
        ),
        **ctx,
    )


def _draft_page(request: HtmxHttpRequest, access: Access, rnd: Round, swap_form=None):
    event = access.event
    before = services.event_standings(event, after_round=rnd.number - 1)  # cached per event version
    points = {r.player_id: r.points for r in before.rows}
    met = services.met_before(event, rnd.number)
    rows = []
    for m in rnd.matches.select_related("player_a", "player_b").order_by(F("table").asc(nulls_last=True), "id"):
        pa = points.get(m.player_a.key, 0)
        pb = points.get(m.player_b.key, 0) if m.player_b else None
        rows.append(
            {
                "match": m,
                "points_a": pa,
                "points_b": pb,
                "float": pb is not None and pa != pb,
                "rematch": m.player_b_id is not None and frozenset((m.player_a_id, m.player_b_id)) in met,
            }
        )
    in_round = [p for m in rows for p in (m["match"].player_a, m["match"].player_b) if p]
    bye_notes = [
        bye_note(event, r["match"].player_a, rnd.number)
        for r in rows
        if r["match"].result == Match.Result.BYE and r["match"].player_a.byes < rnd.number
    ]
    waiting = event.players.filter(dropped_after__isnull=True, joined_round__lte=rnd.number).exclude(
        pk__in=[p.pk for p in in_round]
    )
    return page(
        request,
        "organiser/draft.html",
        access,
        round=rnd,
        rows=rows,
        bye_notes=bye_notes,
        waiting=waiting,
        swap_form=swap_form or SwapForm(players=sorted(in_round, key=lambda p: (p.sort_key, p.pk))),
    )


def bye_note(event: Event, player: Player, number: int) -> str:
    """Why this player has the round's bye; a late entrant's surprises organisers, so it says so."""
    name = Names.of(event.pk).label(player)
    if player.joined_round > 1 and event.late_entry == Event.LateEntry.NONE:
        return _(
            "The bye goes to the lowest-ranked player who has not had one: %(name)s, who entered late "
            "(in round %(joined)s, with no record for the rounds before)."
        ) % {"name": name, "joined": player.joined_round}
    if player.joined_round > 1:
        return _(
            "The bye goes to the lowest-ranked player who has not had one: %(name)s, who entered late "
            "(in round %(joined)s, with losses for the rounds before)."
        ) % {"name": name, "joined": player.joined_round}
    return _("The bye goes to the lowest-ranked player who has not had one: %(name)s.") % {"name": name}


@require_POST
@login_required
def round_publish(request: HtmxHttpRequest, slug: str, number: int):
    access = event_for(request, slug, need=ORGANISER)
    rnd = _round(access.event, number)
    services.publish_round(rnd, request.user)
    messages.success(
        request, _("Round %(number)s is published: players can see their tables now.") % {"number": number}
    )
    return back(request, reverse("org_round", args=[slug, number]))


@require_POST
@login_required
def round_repair(request: HtmxHttpRequest, slug: str, number: int):
    access = event_for(request, slug, need=ORGANISER)
    rnd = _round(access.event, number)
    try:
        services.repair_round(rnd, request.user)
    except ServiceError as e:
        messages.error(request, str(e))
    else:
        messages.success(
            request, _("Round %(number)s is paired again as a draft. Check it, then publish it.") % {"number": number}
        )
    return back(request, reverse("org_round", args=[slug, number]))


@require_POST
@login_required
def round_swap(request: HtmxHttpRequest, slug: str, number: int):
    access = event_for(request, slug, need=ORGANISER)
    rnd = _round(access.event, number)
    in_round = list(Player.objects.filter(seats__round=rnd))
    form = SwapForm(request.POST, players=in_round)
    if form.is_valid():
        by_pk = {p.pk: p for p in in_round}
        try:
            # A second click on the same swap must not swap the two back.
            with transaction.atomic():
                once.claim(request)
                warnings = services.swap_players(
                    rnd, by_pk[form.cleaned_data["first"]], by_pk[form.cleaned_data["second"]], request.user
                )
        except once.Repeated:
            return back(request, reverse("org_round", args=[slug, number]))
        except ServiceError as e:
            messages.error(request, str(e))
        else:
            first, second = by_pk[form.cleaned_data["first"]], by_pk[form.cleaned_data["second"]]
            messages.success(request, _("Swapped %(first)s and %(second)s.") % {"first": first, "second": second})
            for w in warnings:
                messages.warning(request, engine_text.translate(w))
            return back(request, reverse("org_round", args=[slug, number]))
    if rnd.state != Round.State.DRAFT:
        for error in form.non_field_errors():
            messages.error(request, error)
        return back(request, reverse("org_round", args=[slug, number]))
    return _draft_page(request, access, rnd, swap_form=form)


@require_POST
@login_required
def round_clock(request: HtmxHttpRequest, slug: str, number: int):
    access = event_for(request, slug)
    rnd = _round(access.event, number)
    form = ClockForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("That clock change is not possible."))
    else:
        try:
            # A double click on "+10 min" adds ten minutes, not twenty.
            with transaction.atomic():
                once.claim(request)
                services.clock(rnd, form.cleaned_data["action"], request.user, form.cleaned_data["minutes"] or 0)
        except once.Repeated:
            pass
        except ServiceError as e:
            messages.error(request, str(e))
    return back(request, _next(request, reverse("org_round", args=[slug, number])))


# ---------------------------------------------------------------- standings


def _standings_rows(event: Event, live: bool = True):
    shown = services.standings_shown(event, live=live)
    result = shown.standings
    codes = list(result.tiebreakers)
    rows = [
        {
            "row": r,
            "points": l10n.number(r.points),
            "tbs": [l10n.value(c, r.tiebreakers[c]) for c in codes],
        }
        for r in result.rows
    ]
    return shown, [l10n.label(c) for c in codes], rows


@require_GET
@login_required
def standings_page(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug)
    shown, labels, rows = _standings_rows(access.event)
    return page(
        request,
        "organiser/standings.html",
        access,
        shown=shown,
        result=shown.standings,
        labels=labels,
        rows=rows,
        placings=services.final_placings(access.event),
    )


# ---------------------------------------------------------------- printing and export


@require_GET
@login_required
def print_round(request: HtmxHttpRequest, slug: str, number: int, kind: str):
    access = event_for(request, slug)
    event = access.event
    rnd = _round(event, number)
    before = standings.compute(event_to_file(event, include_drafts=True), after_round=number - 1)
    points = {r.player_id: l10n.number(r.points) for r in before.rows}
    matches = list(rnd.matches.select_related("player_a", "player_b").order_by(F("table").asc(nulls_last=True), "id"))
    if kind == "by-name":
        lines = []
        for m in matches:
            a, b = m.player_a, m.player_b
            lines.append(
                {
                    "name": a.name,
                    "player": a,
                    "key": a.sort_key,
                    "table": m.table,
                    "opponent": b,
                    "points": points.get(a.key, "0"),
                    "m": m,
                }
            )
            if b:
                lines.append(
                    {
                        "name": b.name,
                        "player": b,
                        "key": b.sort_key,
                        "table": m.table,
                        "opponent": a,
                        "points": points.get(b.key, "0"),
                        "m": m,
                    }
                )
        lines.sort(key=lambda x: x["key"])
        return render(request, "print/pairings_by_name.html", {"event": event, "round": rnd, "lines": lines})
    template = {"by-table": "print/pairings_by_table.html", "slips": "print/slips.html"}[kind]
    rows = [
        {"m": m, "pa": points.get(m.player_a.key, "0"), "pb": points.get(m.player_b.key, "0") if m.player_b else ""}
        for m in matches
    ]
    if kind == "slips":
        rows = [r for r in rows if r["m"].player_b_id]
        if event.reporting != Event.Reporting.ORGANISERS:
            for r in rows:  # the table's reporting page, for players who have not opened their own page
                r["qr"] = qr_svg(request.build_absolute_uri(reverse("player:table", args=[slug, number, r["m"].table])))
    return render(
        request,
        template,
        {"event": event, "round": rnd, "rows": rows, "best_of": event.best_of, "slips_range": range(3)},
    )


@require_GET
@login_required
def print_standings(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug)
    # Printed for the wall: the public rule (standings after the last complete round).
    shown, labels, rows = _standings_rows(access.event, live=False)
    return render(
        request,
        "print/standings.html",
        {
            "event": access.event,
            "result": shown.standings,
            "labels": labels,
            "rows": rows,
            "placings": services.final_placings(access.event),
        },
    )


def _download(content: str, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_GET
@login_required
def export_json(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug)
    doc = ef.dump(event_to_file(access.event, include_drafts=True))
    return _download(json.dumps(doc, ensure_ascii=False, indent=1), f"{slug}.json", "application/json")


@require_GET
@login_required
def export_csv(request: HtmxHttpRequest, slug: str, what: str):
    access = event_for(request, slug)
    event = access.event
    if what == "players":
        return _csv_download(csvio.players_csv(event.players.order_by("number")), f"{slug}-players.csv")
    if what == "standings":
        players = {p.key: p for p in event.players.all()}
        placings = {p.key: place for place, p in services.final_placings(event) or []}
        return _csv_download(
            csvio.standings_csv(services.event_standings(event), players, placings), f"{slug}-standings.csv"
        )
    asked = request.GET.get("round", "")
    if asked and not (asked.isdecimal() and len(asked) < 6):
        raise Http404("No such round.")
    current = services.current_round(event)
    number = int(asked or (current.number if current else 0))
    rnd = _round(event, number)
    before = standings.compute(event_to_file(event, include_drafts=True), after_round=number - 1)
    keys = {p.key: p.pk for p in event.players.all()}
    points = {keys[r.player_id]: standings.format_value("points", r.points) for r in before.rows}
    return _csv_download(csvio.pairings_csv(rnd, points), f"{slug}-round-{number}-pairings.csv")


def _csv_download(content: str, filename: str) -> HttpResponse:
    """A CSV file says its language: in its name (friday-standings-da.csv) and in Content-Language."""
    language = get_language()
    stem = filename.removesuffix(".csv")
    response = _download(csvio.BOM + content, f"{stem}-{language}.csv", "text/csv; charset=utf-8")
    response["Content-Language"] = language
    return response
