"""The bridge between the database and the engines' `swiss-event` dataclasses.

`event_to_file` reads an event with a constant number of queries (whatever its size) and is the one
input both engines get from the web app; `import_event` writes a parsed file atomically.
"""

import datetime as dt
from dataclasses import replace
from fractions import Fraction

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction

import standings
from swiss import eventfile as ef
from swiss import eventrules, eventtrail, model, sectionfacts, trf
from swiss.messages import Message
from tournament.models import Event, Match, Player, Round, Seat
from tournament.records.prize_lists import prize_list_of, store_prize_list
from tournament.services import trail
from tournament.services.staff import insert_with_new_slug
from tournament.services.warnings import trf_comments
from tournament.text.names import clean_player_name


def settings_of(event: Event) -> model.Settings:
    win, draw, loss = event.scoring
    return model.Settings(
        name=event.name,
        slug=event.slug,
        preset=event.preset,
        scoring=model.Scoring(win, draw, loss),
        best_of=event.best_of,
        floor=Fraction(event.floor),
        tiebreakers=tuple(event.tiebreakers),
        bye_rating=event.bye_rating,
        date=event.date.isoformat() if event.date else None,
        planned_rounds=event.planned_rounds,
        top_cut=event.top_cut,
        round_minutes=event.round_minutes,
        public=event.public,
        late_entry=event.late_entry,
        round_one=event.round_one,
        colours=event.colours,
        language=event.language,
        time_zone=event.time_zone,
        trf_header=tuple(event.trf_header.splitlines()),
        initial_colour=event.initial_colour or None,
        rating_breaks_ties=event.rating_breaks_ties,
        tiebreak_rules=event.tiebreak_rules,
        pairing=event.pairing,
        acceleration=event.acceleration,
        # [key, key] every round; [key, key, first, last] in those rounds only (a TRF-2026 260 range).
        forbidden_pairs=tuple((p[0], p[1]) for p in event.forbidden_pairs if len(p) == 2),
        forbidden_rounds=tuple((p[0], p[1], int(p[2]), int(p[3])) for p in event.forbidden_pairs if len(p) == 4),
        city=event.city,
        federation=event.federation,
        end_date=event.end_date.isoformat() if event.end_date else None,
        chief_arbiter=event.chief_arbiter,
        deputy_arbiters=tuple(line for line in event.deputy_arbiters.splitlines() if line.strip()),
        time_control=event.time_control,
        round_dates=round_dates_of(event.round_dates),
        **{key: getattr(event, key) for key in SECTION_FIELDS},
        cut_points=Fraction(event.cut_points) if event.cut_points else None,
        cut_ties=event.cut_ties,
        # The section it is paired with goes by its name in a file: `venue_to_file` names it (and `joined`).
        **{key: getattr(event, key) for key in eventrules.KEYS},
    )


# A section's settings the file and the row share as they are (docs/sections.md): all but the cut's points
# (a fraction as text), its ties rule (empty for none), the section paired with (by name in a file) and whether it
# joined it (the row names the section it joined).
SECTION_FIELDS = tuple(k for k in sectionfacts.KEYS if k not in ("cut_points", "cut_ties", "pair_with", "joined"))


def round_dates_of(text: str) -> tuple[str | None, ...]:
    """The stored round dates (one ISO date a line, an empty line for a round without one) as the model's."""
    dates = [line.strip() or None for line in text.splitlines()]
    while dates and dates[-1] is None:
        dates.pop()
    return tuple(dates)


def player_to_file(p: Player) -> model.Player:
    return model.Player(
        id=p.key,
        name=p.name,
        rating=p.rating,
        byes=p.byes,
        joined_round=p.joined_round,
        dropped_after=p.dropped_after,
        external_id=p.external_id,
        fixed_table=p.fixed_table,
        reading=p.reading,
        number=p.number,
        federation=p.federation,
        title=p.title,
        sex=p.sex,
        birth_date=p.birth_date,
        fide_id=p.fide_id,
        requested_byes=tuple(sorted((int(r), kind) for r, kind in p.requested_byes.items())),
        family_name=p.family_name,
        given_name=p.given_name,
        accelerations=tuple(Fraction(a) for a in p.accelerations),
        pairing_number=p.pairing_number,
        division=p.division,
        cut_after=p.cut_after,
        k=p.k,
        half_bye_ok=p.half_bye_ok,
    )


def match_to_file(m: Match, keys: dict[int, str]) -> model.Match:
    return model.Match(
        a=keys[m.player_a_id],
        b=keys[m.player_b_id] if m.player_b_id else None,
        games=m.games,
        result=m.result,
        table=m.table,
        white=keys[m.white_id] if m.white_id else None,
        adjourned=m.adjourned,
    )


def event_to_file(event: Event, include_drafts: bool = False, with_trail: bool = False) -> model.Event:
    """The whole event as engine input: three queries (players, rounds, matches); `with_trail`: and the rounds'
    trails and the prize list, as files carry them (two more queries; the engines never read them)."""
    players = list(event.players.order_by("id"))
    keys = {p.pk: p.key for p in players}
    rounds = list(event.rounds.order_by("number"))
    if not include_drafts:
        rounds = [r for r in rounds if r.state != Round.State.DRAFT]
    by_round: dict[int, list[model.Match]] = {r.pk: [] for r in rounds}
    matches = Match.objects.filter(round__in=[r.pk for r in rounds]).order_by("round_id", "id")
    columns = ["round_id", "table", "player_a_id", "player_b_id", "games_a", "games_b", "games_drawn", "result"]
    for m in matches.only(*columns, "white_id", "adjourned"):
        by_round[m.round_id].append(match_to_file(m, keys))
    settings = settings_of(event)
    if settings.forbidden_pairs or settings.forbidden_rounds:
        # A pair naming a player deleted since is no pair.
        known = set(keys.values())
        pairs = tuple(pair for pair in settings.forbidden_pairs if set(pair) <= known)
        ranged = tuple(r for r in settings.forbidden_rounds if {r[0], r[1]} <= known)
        settings = replace(settings, forbidden_pairs=pairs, forbidden_rounds=ranged)
    changes = trail.to_file(event) if with_trail else {}
    if with_trail:  # the prize list too, as files carry it (the engines that pair and rank never read it)
        prizes, rules = prize_list_of(event)
        settings = replace(settings, prizes=prizes, prize_rules=rules)
    return model.Event(
        settings=settings,
        players=tuple(player_to_file(p) for p in players),
        rounds=tuple(
            model.Round(
                number=r.number,
                matches=tuple(by_round[r.pk]),
                kind=r.kind,
                seed=r.seed,
                state=r.state,
                changes=changes.get(r.number, ()),
            )
            for r in rounds
        ),
    )


def venue_to_file(event: Event) -> model.Venue:
    """An event with sections as a version-2 file: the venue's facts, its players not yet placed, and each
    section whole (drafts included, as an export keeps them), the section it is paired with by name."""
    names = {s.pk: s.name for s in event.section_list}
    sections = []
    for section in event.section_list:
        doc = event_to_file(section, include_drafts=True, with_trail=True)
        if section.pair_with_id in names:
            joined = section.joined_partner_id is not None and section.joined_partner_id == section.pair_with_id
            pair_with = names[section.pair_with_id]
            doc = replace(doc, settings=replace(doc.settings, pair_with=pair_with, joined=joined))
        sections.append(doc)
    return model.Venue(
        name=event.name,
        slug=event.slug,
        date=event.date.isoformat() if event.date else None,
        language=event.language,
        time_zone=event.time_zone,
        public=event.public,
        players=tuple(player_to_file(p) for p in event.players.order_by("id")),
        sections=tuple(sections),
        city=event.city,
        federation=event.federation,
        end_date=event.end_date.isoformat() if event.end_date else None,
    )


def export_file(event: Event) -> model.Event | model.Venue:
    """What an export writes: an event with sections as a version-2 file, any other as version 1 (a
    section on its own as its own version-1 file, without the section it is paired with: not in it)."""
    if event.sections.exists():
        return venue_to_file(event)
    return event_to_file(event, include_drafts=True, with_trail=True)


def event_to_trf(event: Event) -> str:
    """The event's published rounds as a FIDE TRF-16 file, with the standings' points and ranks, and after the
    player lines the `###` lines of the FIDE-mode warnings the arbiter passed (services/warnings.py) and of the
    rounds' trails, one a change (swiss/eventtrail.py)."""
    doc = event_to_file(event, with_trail=True)
    table = standings.compute(doc)
    text = trf.dumps(doc, {r.player_id: r.rank for r in table.rows}, {r.player_id: r.points for r in table.rows})
    return text + "".join(f"{line}\n" for line in [*trf_comments(event), *eventtrail.trf_lines(doc)])


def _num(f: Fraction) -> str:
    return str(f)


def create_matches(rnd: Round, matches: list[Match]) -> list[Match]:
    """Insert a round's matches and their seats in bulk; the seats make a second pairing of a player fail."""
    created = Match.objects.bulk_create(matches)
    seats = [Seat(round=rnd, player_id=m.player_a_id) for m in matches]
    seats += [Seat(round=rnd, player_id=m.player_b_id) for m in matches if m.player_b_id]
    Seat.objects.bulk_create(seats)
    return created


def _player_name(name: str, place: str) -> str:
    """The name as the web forms would store it, or the file's error at `place`."""
    try:
        return clean_player_name(name)
    except ValidationError as e:
        # Already in the reader's language (the form's own message): carried as it is.
        raise ef.EventFileError(place, Message("file_player_name", "{problem}", problem=e.messages[0])) from None


def _parts(p: model.Player) -> tuple[tuple[str, str], tuple[str, str]]:
    return ("family_name", p.family_name), ("given_name", p.given_name)


@transaction.atomic
def import_event(doc: model.Event, slug: str | None = None) -> Event:
    """Write a parsed swiss-event file as a new event; all or nothing."""
    check_fits(doc)
    if slug and Event.objects.filter(slug=slug).exists():
        raise ef.EventFileError(
            "", Message("file_slug_taken", "an event with the slug {slug} exists already", slug=repr(slug))
        )
    s = doc.settings
    if not slug and s.slug and not Event.objects.filter(slug=s.slug).exists():
        slug = s.slug  # restoring an export keeps its addresses
    event = Event(slug=slug or "", name=s.name, **event_fields(s))
    if slug:
        event.save(force_insert=True)
    else:
        insert_with_new_slug(event)  # the web's rule: nothing told about the events that exist
    write_players_and_rounds(event, doc)
    return event


def _bodies(doc: model.Event | model.Venue) -> list[tuple[str, model.Event]]:
    """The events a file holds, each with the place of its body in the file ("" for a version-1 file's)."""
    if isinstance(doc, model.Venue):
        return [(f"sections[{i}].", s) for i, s in enumerate(doc.sections)]
    return [("", doc)]


def _length(value) -> int:
    return len(value) if isinstance(value, list) else 0


def _shape(doc) -> tuple[bool, int, list[tuple[str, int, int, int]]]:
    """(has sections, the venue's players, each body's (place, players, rounds, results)) of a parsed file, or of
    a decoded one not yet parsed (its lists counted as they are: the reader refuses what is not one)."""
    if isinstance(doc, model.Event | model.Venue):
        venue = isinstance(doc, model.Venue)
        bodies = [
            (place, len(b.players), len(b.rounds), sum(len(r.matches) for r in b.rounds)) for place, b in _bodies(doc)
        ]
        return venue, len(doc.players) if venue else 0, bodies
    if not isinstance(doc, dict):
        return False, 0, []
    venue = doc.get("version") == 2
    raw = [b for b in doc.get("sections", []) if isinstance(b, dict)] if venue else [doc]
    if venue and not isinstance(doc.get("sections"), list):
        raw = []
    bodies = []
    for i, body in enumerate(raw):
        rounds = body.get("rounds") if isinstance(body.get("rounds"), list) else []
        results = sum(_length(r.get("matches")) for r in rounds if isinstance(r, dict))
        bodies.append((f"sections[{i}]." if venue else "", _length(body.get("players")), len(rounds), results))
    return venue, _length(doc.get("players")) if venue else 0, bodies


def file_players(doc) -> int:
    """Every player a file holds: a version-2 file's venue's and every section's."""
    _venue, players, bodies = _shape(doc)
    return players + sum(b[1] for b in bodies)


def file_size(doc) -> int:
    """A file's size as its import costs it: player-rounds, each section's, and a thousand for each section (making
    one costs about as much as a thousand player-rounds: bench/event_files.py)."""
    venue, players, bodies = _shape(doc)
    return players + sum(n * max(1, rounds) for _, n, rounds, _ in bodies) + (1000 * len(bodies) if venue else 0)


def check_file(doc) -> None:
    """Refuse, by place, a file larger than an event is, whole: more players than an event holds (its sections'
    together), more sections than it holds, more rounds than a section's players could play (a double
    round-robin, as a TRF's), more results than an event holds. Asked of the decoded document before it is read
    (so that a large file is refused at once, not read nor queued) and of the read file where it is stored."""
    venue, _players, bodies = _shape(doc)
    players = file_players(doc)
    if players > settings.MAX_PLAYERS_PER_EVENT:
        raise ef.EventFileError(
            "sections" if venue else "players",
            Message(
                "file_too_many_players",
                "{count} players; an event holds at most {limit}",
                count=players,
                limit=settings.MAX_PLAYERS_PER_EVENT,
            ),
        )
    if venue and len(bodies) > settings.MAX_SECTIONS_PER_EVENT:
        raise ef.EventFileError(
            "sections",
            Message(
                "file_too_many_sections",
                "{count} sections; an event holds at most {limit}",
                count=len(bodies),
                limit=settings.MAX_SECTIONS_PER_EVENT,
            ),
        )
    for place, count, rounds, _results in bodies:
        limit = min(model.SMALL_MAX, max(2 * count, trf.MATCH_ROUNDS))
        if rounds > limit:
            raise ef.EventFileError(
                f"{place}rounds",
                Message(
                    "trf_too_many_rounds",
                    "{rounds} rounds for {players} players: at most {limit} (twice the players, or {match})",
                    rounds=rounds,
                    players=count,
                    limit=limit,
                    match=trf.MATCH_ROUNDS,
                ),
            )
    results = sum(b[3] for b in bodies)
    if results > settings.MAX_RESULTS_PER_EVENT:
        raise ef.EventFileError(
            "sections" if venue else "rounds",
            Message(
                "file_too_many_results",
                "{count} results; an event holds at most {limit}",
                count=results,
                limit=settings.MAX_RESULTS_PER_EVENT,
            ),
        )


def check_fits(doc: model.Event) -> None:
    """Refuse, by place, what a parsed file holds that an event cannot: too many players, too long a name."""
    if len(doc.players) > settings.MAX_PLAYERS_PER_EVENT:
        raise ef.EventFileError(
            "players",
            Message(
                "file_too_many_players",
                "{count} players; an event holds at most {limit}",
                count=len(doc.players),
                limit=settings.MAX_PLAYERS_PER_EVENT,
            ),
        )
    limit = Player._meta.get_field("name").max_length
    for i, p in enumerate(doc.players):
        for key in ("name", "reading", "family_name", "given_name", "division"):
            if len(getattr(p, key)) > limit:
                raise ef.EventFileError(
                    f"players[{i}].{key}",
                    Message("file_text_too_long", "longer than {limit} characters", limit=limit),
                )


def event_fields(s: model.Settings) -> dict:
    """The Event row's fields a file's settings give (all but its slug and name; a section's pair_with,
    which names another section, is for the caller that creates them all)."""
    return dict(
        date=dt.date.fromisoformat(s.date) if s.date else dt.date.today(),
        preset=s.preset,
        win_points=_num(s.scoring.win),
        draw_points=_num(s.scoring.draw),
        loss_points=_num(s.scoring.loss),
        best_of=s.best_of,
        floor=_num(s.floor),
        tiebreakers=list(s.tiebreakers),
        bye_rating=s.bye_rating,
        colours=s.colours,
        round_one=s.round_one,
        planned_rounds=s.planned_rounds,
        top_cut=s.top_cut,
        round_minutes=s.round_minutes,
        public=s.public,
        late_entry=s.late_entry,
        language=s.language,
        time_zone=s.time_zone,
        trf_header="\n".join(s.trf_header),
        initial_colour=s.initial_colour or "",
        rating_breaks_ties=s.rating_breaks_ties,
        tiebreak_rules=s.tiebreak_rules,
        pairing=s.pairing,
        acceleration=s.acceleration,
        forbidden_pairs=[list(pair) for pair in s.forbidden_pairs] + [list(r) for r in s.forbidden_rounds],
        city=s.city,
        federation=s.federation,
        end_date=dt.date.fromisoformat(s.end_date) if s.end_date else None,
        chief_arbiter=s.chief_arbiter,
        deputy_arbiters="\n".join(s.deputy_arbiters),
        time_control=s.time_control,
        round_dates="\n".join(d or "" for d in s.round_dates),
        **{key: getattr(s, key) for key in SECTION_FIELDS},
        cut_points=_num(s.cut_points) if s.cut_points is not None else "",
        cut_ties=s.cut_ties,
        # FIDE mode as the file says it, or when it says nothing, on for a chess event that has not left it.
        **{key: s.in_fide_mode if key == "fide_mode" else getattr(s, key) for key in eventrules.KEYS},
    )


def write_players_and_rounds(event: Event, doc: model.Event) -> None:
    """The file's players and rounds, and its prize list, into the new event (`check_fits` has passed)."""
    s = doc.settings
    store_prize_list(event, s.prizes, s.prize_rules)
    names = [_player_name(p.name, f"players[{i}].name") for i, p in enumerate(doc.players)]
    # The name's parts, cleaned as the name is (both or neither: the file's reader checked).
    parts = [
        tuple(_player_name(v, f"players[{i}].{key}") if v.strip() else "" for key, v in _parts(p))
        for i, p in enumerate(doc.players)
    ]
    created = Player.objects.bulk_create(
        [
            Player(
                event=event,
                name=name,
                rating=p.rating,
                byes=p.byes,
                joined_round=p.joined_round,
                dropped_after=p.dropped_after,
                fixed_table=p.fixed_table,
                number=p.number,
                key=p.id,
                reading=p.reading,
                federation=p.federation,
                title=p.title,
                sex=p.sex,
                birth_date=p.birth_date,
                external_id=p.external_id,
                fide_id=p.fide_id,
                requested_byes={str(r): kind for r, kind in p.requested_byes},
                family_name=family,
                given_name=given,
                accelerations=[str(a) for a in p.accelerations],
                pairing_number=p.pairing_number,
                division=p.division,
                cut_after=p.cut_after,
                k=p.k,
                half_bye_ok=p.half_bye_ok,
            )
            for p, name, (family, given) in zip(doc.players, names, parts, strict=True)
        ]
    )
    if any(p.pk is None for p in created):  # backends without RETURNING
        created = list(event.players.order_by("id"))
    pk = {p.key: p.pk for p in created}
    for r in doc.rounds:
        state = r.state or (Round.State.COMPLETE if all(m.has_result for m in r.matches) else Round.State.IN_PROGRESS)
        rnd = Round.objects.create(
            event=event, number=r.number, kind=r.kind, state=state, seed=r.seed, clock_minutes=s.round_minutes
        )
        create_matches(
            rnd,
            [
                Match(
                    round=rnd,
                    table=m.table,
                    player_a_id=pk[m.a],
                    player_b_id=pk[m.b] if m.b else None,
                    games_a=m.games[0] if m.games else None,
                    games_b=m.games[1] if m.games else None,
                    games_drawn=m.games[2] if m.games else None,
                    result=m.result,
                    white_id=pk[m.white] if m.white else None,
                    adjourned=m.adjourned,
                )
                for m in r.matches
            ],
        )
    trail.from_file(event, doc.rounds)
