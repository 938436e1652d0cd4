"""Registration: the roster, adding players (one, pasted, or a CSV file), editing, dropping, reinstating and
deleting them."""

import copy
import dataclasses
import hashlib

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournament.files import csv_rosters
from tournament.forms import once
from tournament.forms.players import (
    CsvConfirmForm,
    CsvUploadForm,
    PasteForm,
    PlayerForm,
    QuickAddForm,
    RequestedByeForm,
)
from tournament.forms.sections import PlaceForm
from tournament.jobs.files import large, players_payload
from tournament.models import Event, Job, Player, Round
from tournament.pages.players import history_lines, roster_context
from tournament.services.divisions import plays_in
from tournament.services.fide import player_edited
from tournament.services.locks import ServiceError, changed, current_round, lock_event
from tournament.services.roster import (
    NewPlayer,
    add_player,
    add_players,
    delete_player,
    drop_player,
    new_players,
    next_requestable_round,
    paired_players,
    request_bye,
    undrop_player,
)
from tournament.services.sections import paired_in, placed_by_rules, register
from tournament.services.warnings import Unpassed
from tournament.text import game_words, l10n, names
from tournament.text.results import result_word
from tournament.views.access import ORGANISER, Access, HtmxHttpRequest, event_for
from tournament.views.jobs import start as start_job
from tournament.views.responses import back, next_url, page, save_changed
from tournament.views.warnings import ask, passes


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
        **roster_context(access.event),
    )


@require_POST
@login_required
def player_add(request: HtmxHttpRequest, slug: str):
    """The quick add. With HTMX each name is sent on its own by the desk's queue (static/js/organiser.js) and
    answered by its line in the list under the box (added, or refused and why) and the roster out of band: the
    box being typed in is never part of the answer. Each name carries its own `once` token, so a name sent
    twice (Send again after a lost answer) is added once."""
    access = event_for(request, slug, need=ORGANISER)
    form = QuickAddForm(request.POST)
    added, notes, repeated = None, [], False
    if form.is_valid():
        try:
            with transaction.atomic():
                once.claim(request)
                entry = NewPlayer(
                    name=form.cleaned_data["name"],
                    reading=form.reading,
                    rating=form.rating,
                    family_name=form.entry.family_name,
                    given_name=form.entry.given_name,
                )
                added, notes = _register(request, access.event, [entry], _chosen_section(request, access.event))
        except once.Repeated:
            if not request.htmx:
                return redirect("org_players", slug=slug)
            repeated = True
        except ServiceError as e:
            form.add_error("name", str(e))
        else:
            if not request.htmx:
                for note in notes:
                    messages.warning(request, note)
                messages.success(request, _("Added %(player)s.") % {"player": added})
                return redirect("org_players", slug=slug)
    if not request.htmx:
        return page(
            request,
            "organiser/players.html",
            access,
            add_form=form,
            paste_form=PasteForm(),
            csv_form=CsvUploadForm(),
            **roster_context(access.event),
        )
    return page(
        request,
        "organiser/players.html",
        access,
        partial="add-response",
        add_form=form,
        typed=request.POST.get("name", "").strip()[:200],
        added=added,
        notes=notes,
        repeated=repeated,
        **(roster_context(access.event) if added else {}),
    )


def _chosen_section(request, event: Event) -> Event | None:
    """The section chosen on the event's quick add; None for "by the rules" (or an event without sections)."""
    form = PlaceForm(request.POST, sections=[] if event.is_section else event.section_list)
    return form.chosen() if form.is_valid() else None


def _register(request, event: Event, entries: list[NewPlayer], chosen=None, sections_of=None) -> tuple[Player, list]:
    """Register one player: at an event with sections, in the section chosen or by the rules
    (`services.sections.register`); elsewhere in the event itself."""
    if not event.is_section and event.sections.exists():
        ids, notes = register(event, request.user, [(entries[0], chosen)])
        return Player.objects.get(pk=ids[0]), notes
    return add_player(event, request.user, **dataclasses.asdict(entries[0]))


def _add_many(
    request, event: Event, rows: list[NewPlayer], token: str | None = None, sections: list | None = None
) -> int:
    """Add the rows once: a repeat of this submission (`token`, else the form's own) raises `once.Repeated`.
    `sections`: each row's section, at an event with sections (None: by the rules)."""
    with transaction.atomic():
        once.claim(request, token)
        if sections is not None:
            added, notes = register(event, request.user, list(zip(rows, sections, strict=True)))
        else:
            added, notes = add_players(event, request.user, rows)
    for note in notes:
        messages.warning(request, note)
    return len(added)


def _import_job(request, access: Access, source: str, text: str, token: str | None):
    """A large roster stored by the worker: the submission recorded once (a repeat goes to the roster page, which
    follows the job), with the job, in one transaction."""

    def remember(job) -> None:
        once.done(submission, reverse("org_players", args=[access.event.slug]))

    try:
        with transaction.atomic():
            submission = once.claim(request, token)
            response = start_job(request, access, Job.Kind.PLAYERS, players_payload(source, text), then=remember)
            if response is None:  # the worker is busy with this event: the file may be confirmed again
                transaction.set_rollback(True)
    except once.Repeated as r:
        messages.info(request, _("This file was imported already; nothing was added again."))
        return back(request, r.outcome or reverse("org_players", args=[access.event.slug]))
    return response or back(request, reverse("org_players", args=[access.event.slug]))


@require_POST
@login_required
def players_paste(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug, need=ORGANISER)
    form = PasteForm(request.POST, sections=_section_names(access.event), fide=access.event.fide)
    if form.is_valid() and large("players", len(form.rows)) and not access.event.section_list:
        # A list this long is stored by the worker (tournament/jobs/files.py); the roster page follows it. (At an
        # event with sections a list is placed section by section in the request: services/sections.py.)
        return _import_job(request, access, "paste", form.cleaned_data["lines"], None)
    if form.is_valid():
        try:
            entries, sections = _entries(access.event, form.rows)
            n = _add_many(request, access.event, entries, sections=sections)
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
        **roster_context(access.event),
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
            **roster_context(access.event),
        )
    text = form.cleaned_data["file"]
    return _csv_preview(request, access, text, form.encoding)


def _section_names(event: Event) -> tuple[list[str], str | None]:
    """The section names a list's `section` column may give (csv_rosters.check_sections): the event's sections at an
    event with sections; only its own name at a section's page."""
    if event.is_section:
        return [event.name], event.name
    return [s.name for s in event.section_list], None


def _entries(event: Event, rows) -> tuple[list[NewPlayer], list | None]:
    """The registrations of a list's good rows and, at an event with sections, each row's section (None: by
    the rules). The birth date is kept there whatever the preset: the sections' age rules read it."""
    sections = {} if event.is_section else {s.name: s for s in event.section_list}
    entries = new_players(rows, event.colours)
    if not sections:
        return entries, None
    good = [r for r in rows if r.ok]
    entries = [
        e
        if e.chess or not r.chess.get("birth_date")
        else dataclasses.replace(e, chess={"birth_date": r.chess["birth_date"]})
        for e, r in zip(entries, good, strict=True)
    ]
    return entries, [sections.get(r.section) for r in good]


def _placements(event: Event, rows) -> list[str] | None:
    """Where each of `rows` would be placed, as the preview shows it before anything is imported: at an event
    with sections, the section named or the one the rules give (or that it fits none); at a section whose
    players play in a partner (divisions paired together), the section they play in and their division. None
    where every row goes to `event` itself with no division."""
    sections = [] if event.is_section else event.section_list
    if not sections and plays_in(event) == (event, ""):
        return None
    labels = []
    for r in rows:
        if sections:
            section = next((s for s in sections if s.name == r.section), None) if r.section else None
            section = section or placed_by_rules(sections, r.rating, r.chess.get("birth_date", ""))
        else:
            section = event
        if section is None:
            labels.append(_("fits no section's rules"))
            continue
        target, division = plays_in(section)
        if division and target.pk != section.pk:
            labels.append(_("%(section)s, plays in %(partner)s") % {"section": section.name, "partner": target.name})
        else:
            labels.append(section.name)
    return labels


PREVIEW_ROWS = 500
# How the preview says a file's fields were separated.
DELIMITERS = {",": gettext_lazy("commas"), ";": gettext_lazy("semicolons"), "\t": gettext_lazy("tabs")}


def _csv_preview(request, access: Access, text: str, encoding: str):
    existing = set(access.event.players.values_list("name", flat=True))
    rows = csv_rosters.parse_players(text, existing)
    csv_rosters.check_sections(rows, *_section_names(access.event))
    if access.event.fide:
        csv_rosters.check_fide_byes(rows)
    # A 50,000-row file is checked whole, but the page shows the bad rows and the first good ones.
    shown = rows
    if len(rows) > PREVIEW_ROWS:
        shown = sorted(sorted(rows, key=lambda r: r.ok)[:PREVIEW_ROWS], key=lambda r: r.line)
    placements = _placements(access.event, shown)
    for r, placed in zip(shown, placements or [], strict=False):
        r.placed = placed
    return page(
        request,
        "organiser/csv_preview.html",
        access,
        rows=shown,
        placements=placements is not None,
        born=any(r.chess.get("birth_date") for r in shown),
        hidden=len(rows) - len(shown),
        good=sum(1 for r in rows if r.ok),
        bad=sum(1 for r in rows if not r.ok),
        confirm_form=CsvConfirmForm(initial={"text": text}),
        encoding=encoding,
        delimiter=DELIMITERS[csv_rosters.delimiter_of(text)],
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
    rows = csv_rosters.parse_players(text)
    csv_rosters.check_sections(rows, *_section_names(access.event))
    if access.event.fide:
        csv_rosters.check_fide_byes(rows)
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
            % {"line": first.line, "errors": l10n.join_errors(first.errors), "more": len(bad) - 1}
            + l10n.gap()
            + _("Fix the file and upload it again."),
        )
        return back(request, reverse("org_players", args=[slug]))
    # One file is imported once into one event, however often (or however simultaneously) it is confirmed.
    digest = hashlib.sha256(f"{access.event.pk}:{text}".encode()).hexdigest()
    if large("players", len(rows)) and not access.event.section_list:
        return _import_job(request, access, "csv", text, f"csv:{digest}")
    try:
        entries, sections = _entries(access.event, rows)
        n = _add_many(request, access.event, entries, token=f"csv:{digest}", sections=sections)
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
    before = copy.copy(player)  # the form writes its values onto `player` as it validates
    form = PlayerForm(request.POST or None, instance=player, chess=access.event.colours, fide=access.event.fide)
    if request.method == "POST" and form.is_valid():
        if form.has_changed():
            try:
                with transaction.atomic():
                    event = lock_event(access.event)
                    # FIDE mode: pre-awarded byes are full-point byes, asked like the bye form's (services/fide.py).
                    player_edited(event, request.user, before, player, passes(request))
                    save_changed(form)
            except Unpassed as w:
                return ask(request, access, w, reverse("org_player_edit", args=[slug, player.pk]))
            changed(access.event)
        if access.event.players.filter(name__iexact=player.name).exclude(pk=player.pk).exists():
            messages.warning(request, _("There is another player called %(name)s.") % {"name": player.name})
        messages.success(request, _("Saved %(player)s.") % {"player": player})
        return back(request, reverse("org_players", args=[slug]))
    return page(
        request,
        "organiser/player_edit.html",
        access,
        form=form,
        player=player,
        history=history_lines(access.event, player),
        deletable=player.pk not in paired_players(access.event),
        bye_form=RequestedByeForm(initial={"round": next_requestable_round(access.event)}, fide=access.event.fide),
        requested_byes=requested_byes(player),
        **_section_choice(access.event, player),
    )


def _section_choice(event: Event, player: Player) -> dict:
    """The player page's choice of another section, at an event with sections: a move before their section
    pairs them, withdraw-and-enter-again after (docs/sections.md)."""
    others = [s for s in event.root.section_list if s.pk != event.pk]
    if not others:
        return {}
    return {
        "move_form": PlaceForm(sections=others, blank=_("Choose a section")),
        "move_paired": event.is_section and paired_in(player),
    }


def requested_byes(player: Player) -> list[tuple[int, str]]:
    """The player's requested byes as (round, words), by round."""
    return sorted((int(r), result_word(kind)) for r, kind in player.requested_byes.items())


@require_POST
@login_required
def player_bye(request: HtmxHttpRequest, slug: str, player_id: int):
    """Record or withdraw a bye the player asked for in a round not yet paired."""
    access = event_for(request, slug, need=ORGANISER)
    player = get_object_or_404(Player, pk=player_id, event=access.event)
    form = RequestedByeForm(request.POST, fide=access.event.fide)
    if not form.is_valid():
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
    else:
        number, kind = form.cleaned_data["round"], form.cleaned_data["kind"]
        try:
            with transaction.atomic():
                once.claim(request)
                request_bye(player, number, kind, request.user, passed=passes(request))
        except Unpassed as w:  # FIDE mode: the bye's warnings (services/fide.py)
            return ask(request, access, w, reverse("org_player_edit", args=[slug, player.pk]))
        except once.Repeated:
            return back(request, reverse("org_player_edit", args=[slug, player.pk]))
        except ServiceError as e:
            messages.error(request, str(e))
        else:
            if kind:
                messages.success(
                    request,
                    _("%(name)s has a %(bye)s in round %(number)s: the pairing leaves them out.")
                    % {"name": player.name, "bye": result_word(kind).lower(), "number": number},
                )
            else:
                messages.success(
                    request,
                    game_words.gettext("%(name)s plays round %(number)s: no bye.")
                    % {"name": player.name, "number": number},
                )
    return back(request, reverse("org_player_edit", args=[slug, player.pk]))


def player_confirm(request: HtmxHttpRequest, access: Access, player: Player, action: str, error: str = ""):
    """The page that asks before a drop or a delete, saying what it does."""
    current = current_round(access.event)
    return page(
        request,
        "organiser/player_confirm.html",
        access,
        player=player,
        action=action,
        after_round=current.number if current else 0,
        deletable=player.pk not in paired_players(access.event),
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
        drop_player(player, request.user)
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
    return back(request, next_url(request, reverse("org_players", args=[slug])))


@require_POST
@login_required
def player_undrop(request: HtmxHttpRequest, slug: str, player_id: int):
    access = event_for(request, slug, need=ORGANISER)
    player = get_object_or_404(Player, pk=player_id, event=access.event)
    if not player.is_active:
        undrop_player(player, request.user)
        messages.success(request, _("%(name)s is back in the event and will be paired again.") % {"name": player})
    return back(request, reverse("org_players", args=[slug]))


@require_http_methods(["GET", "POST"])
@login_required
def player_delete(request: HtmxHttpRequest, slug: str, player_id: int):
    """Delete a mistaken registration (never paired); GET asks to confirm."""
    access = event_for(request, slug, need=ORGANISER)
    player = get_object_or_404(Player, pk=player_id, event=access.event)
    if request.method == "GET":
        return player_confirm(request, access, player, "delete")
    label = names.numbered(player.name, player.number)
    try:
        delete_player(player, request.user)
    except ServiceError as e:
        return player_confirm(request, access, player, "delete", error=str(e))
    messages.success(request, _("%(player)s is deleted.") % {"player": label})
    return redirect("org_players", slug=slug)
