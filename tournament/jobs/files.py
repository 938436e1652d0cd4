"""Large imports, whole-event exports and large prints as jobs the worker runs (tournament/jobs/workflow.py runs them).

Above a size (settings.JOBS_FROM, where the request crossed about a second: bench/jobs.py), the view that would do the
work queues it instead: the roster import (a CSV file or a pasted list, `Job.Kind.PLAYERS`), a new event from a TRF file
(`TRF`) or from a swiss-event file (`EVENT_FILE`), the event file (`EXPORT`), every player card (`CARDS`) and the whole crosstable (`CROSSTABLE`). The reading and
checking stay in the request (the same parsers, so a bad file is refused at once and queues nothing); the job reads the
file again from `Job.payload` and stores it through the same services, in the transaction that marks the job done: a
job that fails or dies stores nothing. What an export or a print makes is kept gzipped in the job's row
(`Job.result`, at most JOB_RESULT_MAX_BYTES, emptied JOB_RESULT_HOURS later by `jobs.sweep`) for the organiser's
download (`views.jobs`).
"""

from __future__ import annotations

import base64
import gzip
import json

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext

from standings import points_by_player
from swiss import eventfile as ef
from swiss import model, trf, venuefile
from tournament.files import csv_rosters
from tournament.models import Event, EventRole, Job, Player
from tournament.pages.crosstable import crosstable_context  # how the printed page words it
from tournament.pages.rows import qr_svg  # the printed cards' QR code
from tournament.services.event_files import import_file, import_section, without_slug
from tournament.services.locks import ServiceError
from tournament.services.roster import add_players, new_players
from tournament.services.staff import check_may_create
from tournament.snapshot import check_file, export_file, file_players
from tournament.text import engine_text, l10n, name_search

PROGRESS_EVERY = 100  # cards between two progress lines


def rows_of(event: Event) -> int:
    """An event's size as the exports and the crosstable cost it: player-rounds (at least its players); an
    event with sections, its sections' together (its export holds them all)."""
    players = event.players.count()
    return players * max(1, event.rounds.count()) + sum(rows_of(s) for s in event.section_list)


def large(kind: str, size: int) -> bool:
    """Whether work of this kind and size is a job rather than part of the request."""
    limit = settings.JOBS_FROM.get(kind)
    return limit is not None and size >= limit


def players_payload(source: str, text: str) -> str:
    return json.dumps({"source": source, "text": text}, ensure_ascii=False)


def run(job: Job, say) -> dict:
    """Do `job` (a kind other than pairing) in its language; returns the fields stored with its end. Raises
    ServiceError with a sentence for the organiser when it cannot be done."""
    work = {
        Job.Kind.PLAYERS: _players,
        Job.Kind.TRF: _trf,
        Job.Kind.EVENT_FILE: _event_file,
        Job.Kind.EXPORT: _export,
        Job.Kind.CARDS: _cards,
        Job.Kind.CROSSTABLE: _crosstable,
    }[job.kind]
    return work(job, say)


def _players(job: Job, say) -> dict:
    given = json.loads(job.payload)
    parse = csv_rosters.parse_pasted if given["source"] == "paste" else csv_rosters.parse_players
    rows = parse(given["text"])
    if job.event.fide:  # pre-awarded byes are full-point byes, asked on the player's page (services/fide.py)
        csv_rosters.check_fide_byes(rows)
    bad = [r for r in rows if not r.ok]
    if bad:
        raise ServiceError(
            gettext("Nothing was imported: line %(line)s: %(errors)s.")
            % {"line": bad[0].line, "errors": l10n.join_errors(bad[0].errors)}
        )
    entries = new_players(rows, job.event.colours)
    added, notes = add_players(job.event, job.created_by, entries, progress=say)
    n = len(added)
    summary = ngettext("Imported %(count)d player.", "Imported %(count)d players.", n) % {"count": n}
    return {"progress": l10n.gap().join([summary, *notes])[:200]}


def _trf(job: Job, say) -> dict:
    """A new event from a TRF file (a job without an event, its payload the file in base64), or a new section of
    the job's event (its payload `{"name", "trf"}`: views.trf.import_trf_section)."""
    say(gettext("Reading the TRF file…"))
    section = job.event is not None
    given = json.loads(job.payload) if section else {"name": "", "trf": job.payload}
    _still_allowed(job)
    try:
        doc = trf.loads(base64.b64decode(given["trf"]), points_by_player)
        say(
            gettext("Storing %(players)s players and %(rounds)s rounds…")
            % {"players": _count(len(doc.players)), "rounds": len(doc.rounds)}
        )
        if section:
            made = import_section(job.event, doc, given["name"], job.created_by)
            summary = gettext(
                "Section “%(name)s” is imported from the TRF file: %(players)s players, %(rounds)s rounds."
            ) % {"name": made.name, "players": len(doc.players), "rounds": len(doc.rounds)}
            return {"event": made, "progress": summary[:200]}
        event = import_file(doc, by=job.created_by)  # asks, as it stores, whether the account may still create
    except trf.TRFError as e:
        raise ServiceError(
            gettext("Nothing was imported: line %(line)s: %(problem)s")
            % {"line": e.line, "problem": engine_text.translate(e.message)}
        ) from None
    except ef.EventFileError as e:
        raise ServiceError(
            gettext("Nothing was imported: %(problem)s") % {"problem": engine_text.file_error(e)}
        ) from None
    EventRole.objects.create(event=event, user=job.created_by, role=EventRole.Role.ORGANISER)
    summary = gettext("%(name)s is imported from the TRF file: %(players)s players, %(rounds)s rounds.") % {
        "name": event.name,
        "players": len(doc.players),
        "rounds": len(doc.rounds),
    }
    return {"event": event, "progress": summary[:200]}


def _still_allowed(job: Job) -> None:
    """What a job that stores a new event or section asks of its account when the worker gets to it (it may have
    waited, or be run again, long after it was started): that the account still exists, may still create events
    (asked again as it stores: `staff.check_may_create`) and, for a section, is still an organiser of the event."""
    by = job.created_by
    if by is None:
        raise ServiceError(gettext("The account that started this import no longer exists; nothing was imported."))
    check_may_create(by)
    if job.event is not None and not by.is_superuser:
        root = job.event.parent_id or job.event.pk
        if not EventRole.objects.filter(event_id=root, user=by, role=EventRole.Role.ORGANISER).exists():
            raise ServiceError(gettext("Only the event's organisers can add sections; nothing was imported."))


def _event_file(job: Job, say) -> dict:
    """A new event from a swiss-event file (version 1, or 2 with sections), its payload the file in base64: read and
    checked again as the request did (views.event_files), then stored by the same service."""
    say(gettext("Reading the event file…"))
    _still_allowed(job)
    try:
        doc = venuefile.loads(base64.b64decode(job.payload))
        check_file(doc)
        say(gettext("Storing %(players)s players…") % {"players": _count(file_players(doc))})
        event = import_file(without_slug(doc), by=job.created_by)  # asks, as it stores, whether it may still
    except ef.EventFileError as e:
        raise ServiceError(
            gettext("Nothing was imported: %(problem)s") % {"problem": engine_text.file_error(e)}
        ) from None
    EventRole.objects.create(event=event, user=job.created_by, role=EventRole.Role.ORGANISER)
    return {"event": event, "progress": imported_text(event.name, doc)[:200]}


def imported_text(name: str, doc: model.Event | model.Venue) -> str:
    """What an event file's import says when it is done (in the request or by the worker)."""
    if isinstance(doc, model.Venue):
        players = len(doc.players) + sum(len(s.players) for s in doc.sections)
        return ngettext(
            "%(name)s is imported from the event file: %(sections)s section, %(players)s players.",
            "%(name)s is imported from the event file: %(sections)s sections, %(players)s players.",
            len(doc.sections),
        ) % {"name": name, "sections": len(doc.sections), "players": players}
    return gettext("%(name)s is imported from the event file: %(players)s players, %(rounds)s rounds.") % {
        "name": name,
        "players": len(doc.players),
        "rounds": len(doc.rounds),
    }


def _export(job: Job, say) -> dict:
    event = job.event
    say(gettext("Writing the event file…"))
    # As the request writes it (views/printing.export_json): an event with sections as one version-2 file.
    doc = export_file(event)
    data = ef.dump(doc) if isinstance(doc, model.Event) else venuefile.dump(doc)
    text = json.dumps(data, ensure_ascii=False, indent=1)
    return _kept(text, f"{event.slug}.json", "application/json")


def _crosstable(job: Job, say) -> dict:
    event = job.event
    say(gettext("Making the crosstable…"))
    html = render_to_string("print/crosstable.html", crosstable_context(event, live=True))
    return _kept(html, f"{event.slug}-crosstable.html", "text/html; charset=utf-8")


def card_holders(event: Event):
    """Whose cards an event prints: its active players; at an event with sections, every section's too (the
    cards are handed out at the venue's one desk, each card's link at its player's section)."""
    where = {"event_id__in": event.venue_ids()} if not event.parent_id else {"event": event}
    return Player.objects.filter(dropped_after__isnull=True, **where).select_related("event")


def _cards(job: Job, say) -> dict:
    event = job.event
    base = json.loads(job.payload or "{}").get("base", "")
    language = event.language
    players = sorted(card_holders(event), key=lambda p: (name_search.player_key(p, language), p.pk))
    cards = []
    for i, p in enumerate(players, 1):
        url = base + reverse("player:link", args=[p.event.slug, p.pk, p.token])
        cards.append((p, url, qr_svg(url)))
        if i % PROGRESS_EVERY == 0:
            say(gettext("%(done)s of %(total)s cards made") % {"done": _count(i), "total": _count(len(players))})
    html = render_to_string("print/cards.html", {"event": event, "cards": cards, "part": None, "parts": []})
    return _kept(html, f"{event.slug}-cards.html", "text/html; charset=utf-8")


def _kept(text: str, name: str, content_type: str) -> dict:
    data = gzip.compress(text.encode("utf-8"), compresslevel=6)
    if len(data) > settings.JOB_RESULT_MAX_BYTES:
        raise ServiceError(
            gettext("The file would be larger than this server keeps (%(size)s MB); nothing was kept.")
            % {"size": _count(settings.JOB_RESULT_MAX_BYTES // 1_000_000)}
        )
    return {"result": data, "result_name": name, "result_type": content_type}


def _count(n: int) -> str:
    return number_format(n, force_grouping=True)


def done_text(job: Job) -> str:
    if job.kind == Job.Kind.PLAYERS or job.kind in Job.FILE_IMPORTS:
        return job.progress  # the summary the job stored (players imported, notes)
    if job.kind == Job.Kind.EXPORT:
        return gettext("The event file is ready to download.")
    if job.kind == Job.Kind.CARDS:
        return gettext("The player cards are ready to print.")
    return gettext("The crosstable is ready to print.")


def gone_text() -> str:
    return gettext("This file is no longer kept; make it again.")


def page_of(job: Job) -> str:
    """Where the organiser follows the job."""
    if job.kind in Job.FILE_IMPORTS:
        return reverse("org_trf_job", args=[job.pk])
    if job.kind == Job.Kind.PLAYERS:
        return reverse("org_players", args=[job.event.slug])
    return reverse("org_job_page", args=[job.event.slug, job.pk])
