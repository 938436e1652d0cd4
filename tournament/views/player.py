"""The player's own page: their table, their clock, their record, and reporting their result.

A phone is remembered per event by a signed cookie holding the player's id and a digest of their
link's secret (never the secret), so reissuing the link forgets every phone at once. The personal link
itself redirects to `/e/<slug>/me/` straight away: the secret stays out of the address bar, history
and referrers. No login, no account: the link, or the code on the player's card, is the key.

The page is personal (it carries a CSRF token), so it is rendered per request; a poll still answers
304 while neither the event nor the player's match has changed.
"""

import re

from django.conf import settings
from django.contrib import messages
from django.contrib.messages.utils import get_level_tags
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.html import conditional_escape
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from tournament.forms.players import RequestedByeForm
from tournament.infra.fast.rows import Joined, single
from tournament.infra.middleware import client_ip
from tournament.models import Event, Match, Player, Round
from tournament.pages.memo import load_rest
from tournament.pages.player import (
    CSRF_MARK,
    NAME_MARK,
    PhonePage,
    disputed_message,
    frame,
    me_context,
    page_row,
    personal_version,
    sent_message,
)
from tournament.pages.rows import qr_svg
from tournament.services import budgets, codes, reports
from tournament.services.divisions import joined_into
from tournament.services.locks import ServiceError
from tournament.services.results import Outcome, parse_outcome
from tournament.services.roster import request_bye
from tournament.text import game_words
from tournament.text.i18n import use_event
from tournament.views.access import HtmxHttpRequest, is_fragment, public_event, role_of

COOKIE_SALT = "tournament.player"
COOKIE_DAYS = 14


# --- Who this phone belongs to ---------------------------------------------------------------------


def _event(slug: str) -> Event:
    # The link (or the cookie it set) is the key: it works for a hidden event too, whose players still play.
    event = single(Event.objects.filter(slug=slug))
    if event is None:
        raise Http404("No such event.")
    use_event(event)
    return event


def _cookie(event: Event) -> str:
    return f"me-{event.pk}"


def event_path(slug: str) -> str:
    """The path of an event's pages as the browser sends it (a slug in kana or kanji percent-encoded): the
    path of its cookies."""
    return reverse("public:home", args=[slug])


def remember(response: HttpResponse, event: Event, player: Player) -> HttpResponse:
    response.set_signed_cookie(
        _cookie(event),
        f"{player.pk}:{codes.token_digest(player.token)}",
        salt=COOKIE_SALT,
        max_age=COOKIE_DAYS * 86400,
        path=event_path(event.slug),
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
    return response


def device_key(request: HtmxHttpRequest) -> codes.Device | None:
    """This phone's device (`codes.device_of`), None when it has no key of ours."""
    return codes.device_of(request.COOKIES.get(codes.DEVICE_COOKIE))


def keep_device(response: HttpResponse, request: HtmxHttpRequest, device: codes.Device | None) -> HttpResponse:
    """A phone shown the page to type its code on, without a key or with one whose first tries are over, is given
    one (from its address's budget of keys: `codes.give_device`), to keep for a year at every event's address. A
    key comes with the page only, never with the answer to a code: a script posting guesses is given none."""
    if device is not None and device.fresh:
        return response
    key = codes.give_device(address(request))
    if key is not None:
        response.set_cookie(
            codes.DEVICE_COOKIE,
            key,
            max_age=365 * 86400,
            path="/e/",
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
    return response


def forget_cookie(response: HttpResponse, event: Event) -> HttpResponse:
    response.delete_cookie(_cookie(event), path=event_path(event.slug), samesite="Lax")
    return response


def _stranger(request: HtmxHttpRequest, event: Event) -> None:
    """A phone that knows nobody at `event`: a hidden event is a missing one to it (its name included),
    as every public page of a hidden event is; its organisers and judges still see its code page."""
    if not event.public and role_of(request.user, event) is None:
        raise Http404("No such event.")


def _signed(request: HtmxHttpRequest, name: str) -> tuple[int, str] | None:
    """The player id and the digest of their link's secret that the cookie `name` holds, if its signature does."""
    raw = request.get_signed_cookie(name, default="", salt=COOKIE_SALT, max_age=COOKIE_DAYS * 86400)
    pk, _sep, digest = raw.partition(":")
    return (int(pk), digest) if pk.isdigit() else None


def who(request: HtmxHttpRequest, event: Event) -> Player | None:
    """The player this phone was opened as, if their link still holds (a reissued one does not)."""
    signed = _signed(request, _cookie(event))
    player = signed and single(Player.objects.filter(pk=signed[0], event=event))
    if not player or not codes.check_digest(player, signed[1]):
        return None
    player.event = event  # already read: the pages below need it, not another query
    return player


_COOKIE_NAME = re.compile(r"me-(\d+)")  # `_cookie`: the event's id


def phone_player(request: HtmxHttpRequest, slug: str) -> tuple[Event, Player | None]:
    """The event at `slug` and the player this phone was opened as (as `who`), read together in one query.

    Every phone loads and polls its page while a round is reported; the cookie's name says which event it
    was set for, so the player's row brings the event along. A phone without one (or with one its event no
    longer accepts) gets the event alone.
    """
    for name in request.COOKIES:
        event_pk = _COOKIE_NAME.fullmatch(name)
        signed = event_pk and _signed(request, name)
        if not signed:
            continue
        player = _player_at(signed[0], slug, int(event_pk[1]))
        if player is not None and codes.check_digest(player, signed[1]):
            use_event(player.event)
            return player.event, player
    return _event(slug), None


# A player with their event, by the player's id and the event's address (and id, from a cookie's name).
_PLAYER = Joined(("p", Player), ("e", Event))
_PLAYER_SQL = (
    f"SELECT {_PLAYER.select} FROM {Player._meta.db_table} p "  # noqa: S608 (names from the models)
    f"JOIN {Event._meta.db_table} e ON e.id = p.event_id WHERE p.id = %s AND e.slug = %s"
)


def _moved(event: Event, pk: int) -> Player | None:
    """The player `pk` in another section of `event`'s event (or placed from it into a section), if any."""
    root = event.parent_id or event.pk
    return single(
        Player.objects.filter(Q(event_id=root) | Q(event__parent_id=root), pk=pk)
        .exclude(event=event)
        .select_related("event")
    )


def _player_at(pk: int, slug: str, event_pk: int | None = None) -> Player | None:
    if event_pk is None:
        row = _PLAYER.one(_PLAYER_SQL, [pk, slug])
    else:
        row = _PLAYER.one(f"{_PLAYER_SQL} AND p.event_id = %s", [pk, slug, event_pk])
    if row is None:
        return None
    player, player.event = row
    return player


def phone_page(request: HtmxHttpRequest, slug: str) -> PhonePage:
    """`phone_player`, the round being played, the player's match in it and the reports on it, in one query."""
    for name in request.COOKIES:
        event_pk = _COOKIE_NAME.fullmatch(name)
        signed = event_pk and _signed(request, name)
        if not signed:
            continue
        found = page_row(signed[0], int(event_pk[1]), slug)
        if found is not None and codes.check_digest(found.player, signed[1]):
            use_event(found.event)  # its time zone, and a chess event's words
            return found
    return PhonePage(_event(slug))


def address(request: HtmxHttpRequest) -> str | None:
    return client_ip(request)


# --- Views -------------------------------------------------------------------------------------


@require_GET
def link(request: HtmxHttpRequest, slug: str, pk: int, token: str):
    """The personal link on the player's card: remember this phone, then show the page without the secret."""
    # Every player opens theirs in a round's first minutes: the player and the event in one query.
    player = _player_at(pk, slug)
    event = player.event if player is not None else _event(slug)
    into = joined_into(event) if player is None else None
    if into is not None:  # their section joined another (services/divisions.py): their link leads there
        return redirect("player:link", slug=into.slug, pk=pk, token=token)
    moved = _moved(event, pk) if player is None else None
    if moved is not None and codes.check_token(moved, token):
        # A player moved to another section of the event keeps their link (docs/sections.md): the card printed
        # before the move leads to the section they play in now.
        return redirect("player:link", slug=moved.event.slug, pk=pk, token=token)
    if player is None or not codes.check_token(player, token):
        _stranger(request, event)
        response = render(request, "player/link_gone.html", {"event": event}, status=404)
        return forget_cookie(response, event)
    response = redirect("player:me", slug=slug)
    response["Referrer-Policy"] = "no-referrer"
    return remember(response, event, player)


@require_http_methods(["GET", "POST"])
def code(request: HtmxHttpRequest, slug: str):
    """ "This is me": the player types the code from their card. At the address of an event with sections, or of
    any of its sections, the code finds its player in any section (one moved since included), and the phone is
    theirs at their section's address (docs/sections.md)."""
    event = public_event(request, slug, event_language=False)
    load_rest(event)
    error, device = None, device_key(request)
    if request.method == "POST":
        sections = bool(event.parent_id) or event.sections.exists()  # any section's address finds them all
        typed = request.POST.get("code", "")
        try:
            player = codes.find_by_code(event, typed, address(request), sections=sections, device=device)
        except budgets.Throttled as e:
            context = {"event": event, "error": str(e), "retry": e.seconds}
            response = render(request, "player/code.html", context, status=429)
            response["Retry-After"] = str(e.seconds)
            return response
        except ServiceError as e:
            error = str(e)
        else:
            if player.event_id != event.pk:
                section = player.event  # their section: its address keeps the phone's cookie
                return remember(redirect("player:me", slug=section.slug), section, player)
            return remember(redirect("player:me", slug=slug), event, player)
    response = render(request, "player/code.html", {"event": event, "error": error}, status=400 if error else 200)
    return response if error else keep_device(response, request, device)  # a key with the page, not with a guess


@require_POST
def forget(request: HtmxHttpRequest, slug: str):
    """ "Not me": this phone forgets the player.

    The cookies a browser sends here are the ones set for this event's path, so the event is not read: the
    answer is the same for a hidden event, a missing one and a public one."""
    response = redirect("public:pairings", slug=slug)
    for name in request.COOKIES:
        if _COOKIE_NAME.fullmatch(name):
            response.delete_cookie(name, path=event_path(slug), samesite="Lax")
    return response


@require_http_methods(["GET", "POST"])
def table(request: HtmxHttpRequest, slug: str, number: int, table: int):
    """The QR code on a match slip: the players of this table say who they are with their code."""
    event = public_event(request, slug, event_language=False)
    load_rest(event)
    rnd = event.rounds.exclude(state=Round.State.DRAFT).filter(number=number).first()
    match = rnd and rnd.matches.select_related("player_a", "player_b").filter(table=table).first()
    if match is None:
        raise Http404("No such table.")
    me = who(request, event)
    if me is not None and me.pk in (match.player_a_id, match.player_b_id):
        return redirect("player:me", slug=slug)
    error, status, retry = None, 200, None
    device = device_key(request)
    if request.method == "POST":
        seated = [p for p in (match.player_a, match.player_b) if p is not None]
        typed = request.POST.get("code", "")
        try:
            player = codes.find_by_code(event, typed, address(request), among=seated, device=device)
        except budgets.Throttled as e:
            error, status = str(e), 429
            retry = e.seconds
        except ServiceError:
            error, status = _("That is not the code of a player at this table."), 400
        else:
            return remember(redirect("player:me", slug=slug), event, player)
    context = {"event": event, "round": rnd, "match": match, "error": error, "retry": retry}
    response = render(request, "player/table.html", context, status=status)
    if retry:
        response["Retry-After"] = str(retry)
    return keep_device(response, request, device) if request.method == "GET" else response


@require_safe
def me(request: HtmxHttpRequest, slug: str):
    page = phone_page(request, slug)
    if page.player is None:
        _stranger(request, page.event)
        response = render(request, "player/code.html", {"event": page.event, "error": None})
        return keep_device(response, request, device_key(request))
    fragment = is_fragment(request)
    template = "player/me.html" + ("#live" if fragment else "")
    patch = ("Cookie", "HX-Request", "HX-History-Restore-Request")
    if not fragment and len(messages.get_messages(request)) > 0:
        # A page carrying a one-time message ("Reported…") is shown once: with an ETag, a reload would be
        # answered 304 and the browser would show the message again from the copy it kept.
        response = render(request, template, me_context(page))
        patch_cache_control(response, no_store=True, private=True)
        patch_vary_headers(response, patch)
        return response
    etag = f'W/"{personal_version(page, template)}"'
    response = get_conditional_response(request, etag=etag)
    if response is None and fragment:
        response = render(request, template, me_context(page))
    elif response is None:
        response = HttpResponse(_framed(request, page, me_context(page)))
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True, private=True)
    patch_vary_headers(response, patch)
    return response


def _framed(request: HtmxHttpRequest, page: PhonePage, context: dict) -> str:
    """The whole page (without a one-time message: that one is rendered whole): its content for this request, in
    the frame rendered once per event and language, with the player's name and this request's CSRF token put in."""
    before, after = frame(page.event, context)
    before = before.replace(NAME_MARK, conditional_escape(page.player.name)).replace(CSRF_MARK, get_token(request))
    return before + render_to_string("player/me.html#content", context, request) + after


@require_POST
def report(request: HtmxHttpRequest, slug: str):
    """A result from the player's side ("2-1" means they won 2-1), a confirmation, or "That's not right"."""
    page = phone_page(request, slug)
    event, player = page.event, page.player
    if player is None:
        _stranger(request, event)
        messages.error(request, _("This phone does not know who you are: open your personal link or type your code."))
        return redirect("player:me", slug=slug)
    match_id = request.POST.get("match", "")
    action = request.POST.get("action", "report")
    sent = None
    try:
        if not match_id.isdigit():
            raise ServiceError(game_words.gettext("That is not your match."))
        match_id = int(match_id)
        outcome = None
        if action == "dispute":
            sent = reports.dispute(player, match_id, address(request))
        else:
            text = request.POST.get("other" if action == "other" else "result", "")
            outcome = _outcome(page, match_id, action, text)
            # The page's Confirm names the reports it showed (`Match.report_stamp`): a stale one is refused.
            seen = request.POST.get("seen", "")
            seen = int(seen) if action == "confirm" and seen.isdigit() else None
            sent = reports.submit(player, match_id, outcome, address(request), seen, page.shown)
    except ServiceError as e:
        level, text = messages.ERROR, str(e)
    else:
        if sent.state == reports.DISPUTED:
            # Not a success: the match now waits for a judge.
            level, text = messages.WARNING, disputed_message(sent, player, action)
        else:
            level, text = messages.SUCCESS, sent_message(sent, player, outcome, event.chess_results)
    if request.htmx:
        return _live_with(request, slug, level, text, page.after(sent))
    messages.add_message(request, level, text)
    return redirect("player:me", slug=slug)


@require_POST
def bye(request: HtmxHttpRequest, slug: str):
    """A bye the player asks for (or withdraws) in a round not yet paired, where the event allows it."""
    event, player = phone_player(request, slug)
    if player is None:
        raise Http404("Not known on this phone.")
    form = RequestedByeForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
        return redirect("player:me", slug=slug)
    number, kind = form.cleaned_data["round"], form.cleaned_data["kind"]
    try:
        request_bye(player, number, kind, asked_by_player=True)
    except ServiceError as e:
        messages.error(request, str(e))
    else:
        messages.success(
            request,
            _("Saved: you are not paired in round %(number)s.") % {"number": number}
            if kind
            else _("Saved: you play round %(number)s.") % {"number": number},
        )
    return redirect("player:me", slug=slug)


def _live_with(request: HtmxHttpRequest, slug: str, level: int, text: str, page: PhonePage | None) -> HttpResponse:
    """The answer to a report sent by the page itself: its live part as it now stands, and the message once.

    One request instead of a redirect and a whole page; nothing to keep, so a reload never shows it again.
    `page`: the page as the report's own transaction left it (its match and reports read under the match's
    lock); None to read it again (a refusal, a dispute).
    """
    page = page or phone_page(request, slug)
    if page.player is None:
        return HttpResponseClientRedirect(reverse("player:me", args=[slug]))
    template = "player/me.html#live"
    context = me_context(page) | {"flash": (get_level_tags()[level], text)}
    response = HttpResponse(
        render_to_string(template, context, request) + render_to_string("player/me.html#flash", context, request)
    )
    # The page's poll compares this with what it gets next: the same version is not drawn again (public.js),
    # so the message stays until something changes.
    response["ETag"] = f'W/"{personal_version(page, template)}"'
    patch_cache_control(response, no_store=True, private=True)
    return response


@require_POST
def drop(request: HtmxHttpRequest, slug: str):
    event, player = phone_player(request, slug)
    if player is None:
        raise Http404("Not known on this phone.")
    if request.POST.get("confirm") != "yes":
        messages.error(request, _("Tick the box to confirm that you want to drop."))
        return redirect("player:me", slug=slug)
    try:
        reports.request_drop(player, address(request))
    except ServiceError as e:
        messages.error(request, str(e))
    else:
        messages.success(request, _("You are dropped after this round. Thank you for playing!"))
    return redirect("player:me", slug=slug)


# --- Pieces --------------------------------------------------------------------------------------


def _outcome(page: PhonePage, match_id: int, action: str, text: str) -> Outcome:
    """What the player sent, turned to the match's side A and B (the page's match and reports as just read)."""
    event, player = page.event, page.player
    current = page.match is not None and page.match.pk == match_id
    match = page.match if current else single(Match.objects.filter(pk=match_id, round__event=event))
    if match is None or player.pk not in (match.player_a_id, match.player_b_id):
        raise ServiceError(game_words.gettext("That is not your match."))
    if action == "confirm":
        opponent = reports.opponent_of(match, player)
        theirs = page.reports.get(opponent) if current else single(match.reports.filter(player_id=opponent))
        if theirs is None or theirs.disputes:
            raise ServiceError(_("There is no report from your opponent to confirm."))
        return Outcome(theirs.result, theirs.games)
    # A game not played is the arbiter's to record (the opponent may be on their way): "+-", "-+" and "--"
    # (a double forfeit, which the desk stores as a double loss) are refused as forfeits.
    outcome = parse_outcome(text, event.best_of, event.chess_results, forfeits=False)
    if outcome.games and match.player_b_id == player.pk:
        mine, theirs, drawn = outcome.games
        outcome = Outcome(outcome.result, (theirs, mine, drawn))
    return outcome


def personal_qr(request: HtmxHttpRequest, player: Player) -> tuple[str, str]:
    """The personal link and its QR code (for the organiser's cards and registration desk)."""
    url = request.build_absolute_uri(reverse("player:link", args=[player.event.slug, player.pk, player.token]))
    return url, qr_svg(url)
