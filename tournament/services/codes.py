"""Who is this phone: a player's personal link and short code, and how fast codes may be tried.

A player is known by the secret of their personal link or by their short code (`Player.token`, `Player.code`); a
code names its player by number and is compared with that one player's secret after a turn is taken from the
phone's budgets (below). Players' own reports, made once they are known, are `services.reports`'.
"""

import hashlib
import hmac
import ipaddress
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import timedelta

from django.core import signing
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.infra.fast.rows import single
from tournament.models import (
    CODE_ALPHABET,
    CODE_LENGTH,
    Event,
    Player,
)
from tournament.services import budgets
from tournament.services.locks import ServiceError

# Guessing codes (docs/features.md: "Guessing a code" states the arithmetic). Every phone in a hall shares the venue's
# one public address, so a code is budgeted by the phone that types it as well as by the address, and a right code
# spends nothing: nobody's right code is refused because somebody else guessed wrong. A phone is known by a device
# key, a signed cookie (`DEVICE_COOKIE`) the code page gives it; the keys an address is given are themselves a
# budget (DEVICE_STARTS at once, a full hall's phones, then one every DEVICE_START_INTERVAL). A code takes its turns
# before it is compared:
#
# - from the device's own budget (DEVICE_BUDGET wrong codes at once, then one every DEVICE_INTERVAL, over every
#   number): a guesser locks its own device out, never a number for anybody else's;
# - and from the address's (ADDRESS_BUDGET, then one every ADDRESS_INTERVAL, over every event; an IPv6 address
#   counts as its /64, which one machine has whole); when that is spent, one of the device's first tries instead
#   (FIRST_TRIES, within FIRST_TRIES_WINDOW of its key being given). So a hall's phones, each typing its own code,
#   get in while a guesser has spent the address's turns; a guess without a key has the address's turns alone.
#
# A turn not yet due is refused at once (`Throttled`, HTTP 429 with Retry-After): no request is held to slow a
# guesser down. The right code gives every turn it took back.
DEVICE_BUDGET = 10
DEVICE_INTERVAL = timedelta(seconds=60)
ADDRESS_BUDGET = 100
ADDRESS_INTERVAL = timedelta(seconds=5)
FIRST_TRIES = 3
FIRST_TRIES_WINDOW = timedelta(days=1)
DEVICE_STARTS = 400
DEVICE_START_INTERVAL = timedelta(seconds=30)
# Kept for callers and figures that speak of "the" interval: the address's.
GUESS_INTERVAL = ADDRESS_INTERVAL

DEVICE_COOKIE = "swiss_device"
_DEVICE_SALT = "tournament.reports.device"  # kept: keys given before the move stay good


def most_guesses_per_day() -> int:
    """The most codes one address can have compared in a day, over every player of every event: the address's whole
    budget and one per interval, and the first tries of every key it can be given in a day (their budget and one per
    interval). (A device's own budget, smaller, only spreads those guesses over devices.)"""
    day = timedelta(days=1)
    keys = DEVICE_STARTS + int(day / DEVICE_START_INTERVAL)
    return ADDRESS_BUDGET + int(day / ADDRESS_INTERVAL) + FIRST_TRIES * keys


def guess_odds_per_day() -> float:
    """The chance that one guessing address opens anyone's page in a day: each guess names one player by
    number, and is right for one secret in CODE_ALPHABET ** CODE_LENGTH."""
    return most_guesses_per_day() / len(CODE_ALPHABET) ** CODE_LENGTH


# ---------------------------------------------------------------- who is this phone


def token_digest(token: str) -> str:
    """What the phone's cookie keeps instead of the secret itself; changes when the link is reissued."""
    return hashlib.sha256(token.encode()).hexdigest()[:32]


def check_token(player: Player, token: str) -> bool:
    return hmac.compare_digest(player.token.encode(), token.encode())


def check_digest(player: Player, digest: str) -> bool:
    return hmac.compare_digest(token_digest(player.token).encode(), digest.encode())


# Dashes a phone's keyboard gives (a Japanese one: the long-vowel mark ー and the full-width －).
_DASHES = str.maketrans(dict.fromkeys("ー－‐‑‒–—―−ｰ", "-"))


def normalise_code(text: str) -> str:
    """A code as typed on any keyboard: full-width letters and digits (NFKC) read as half-width, every dash
    and space left out, letters in capitals."""
    text = unicodedata.normalize("NFKC", text[:60].translate(_DASHES)).translate(_DASHES)
    return "".join(text.split()).replace("-", "").upper()[:30]


def parse_code(text: str) -> tuple[int, str]:
    """The player number and the secret of a code as typed ("17-ACEF-HJKM", "17 acef hjkm", "17ACEFHJKM")."""
    code = normalise_code(text)
    number, secret = code[:-CODE_LENGTH], code[-CODE_LENGTH:]
    if not (number.isdigit() and len(number) <= 7 and len(secret) == CODE_LENGTH):
        raise ServiceError(
            _("That is not a player code: type your number, then the eight letters and digits, as on your card.")
        )
    return int(number), secret


@dataclass(frozen=True)
class Device:
    """A phone as its key says it: `id` names its own budget; `fresh` while its first tries may be used."""

    id: str
    fresh: bool


def give_device(address: str | None) -> str | None:
    """A new device key for a phone at `address` that has none (or an old one), from the address's budget of keys;
    None when that is spent (the phone's codes then take the address's turns alone)."""
    try:
        budgets.take([_starts(_where(address))], lambda seconds: "")
    except budgets.Throttled:
        return None
    return signing.TimestampSigner(salt=_DEVICE_SALT).sign(secrets.token_urlsafe(16))


def device_of(cookie: str | None) -> Device | None:
    """The phone's device from its cookie: None without a key of ours."""
    if not cookie:
        return None
    signer = signing.TimestampSigner(salt=_DEVICE_SALT)
    try:
        key = signer.unsign(cookie)
    except signing.BadSignature:
        return None
    try:
        signer.unsign(cookie, max_age=FIRST_TRIES_WINDOW)
    except signing.SignatureExpired:
        return Device(key, fresh=False)
    return Device(key, fresh=True)


def _where(address: str | None) -> str:
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return "unknown"  # no address known: such codes share one address's budgets
    return str(ipaddress.ip_network(f"{ip}/64", strict=False) if ip.version == 6 else ip)


def _own(device: Device) -> budgets.Budget:
    return (f"device:{device.id}", DEVICE_BUDGET, DEVICE_INTERVAL)


def _address(where: str) -> budgets.Budget:
    return (f"address:{where}", ADDRESS_BUDGET, ADDRESS_INTERVAL)


def _first_try(device: Device) -> budgets.Budget:
    # Refilled more slowly than the key's window: FIRST_TRIES per key, whatever it does.
    return (f"first:{device.id}", FIRST_TRIES, 2 * FIRST_TRIES_WINDOW)


def _starts(where: str) -> budgets.Budget:
    return (f"starts:{where}", DEVICE_STARTS, DEVICE_START_INTERVAL)


def _refusal(seconds: int) -> str:
    return ngettext(
        "Too many wrong codes were typed here: try again in %(seconds)s second, or scan the QR code on your card.",
        "Too many wrong codes were typed here: try again in %(seconds)s seconds, or scan the QR code on your card.",
        seconds,
    ) % {"seconds": seconds}


def take_turn(device: Device | None, address: str | None) -> list[budgets.Budget]:
    """Take a turn at comparing a code typed on `device` (None: a phone without a key) at `address` (see above);
    returns the budgets it was taken from (to give back when the code is right). `Throttled`, at once and with
    nothing taken, when there is none."""
    where = _where(address)
    if device is None:
        return budgets.take_first([], [[_address(where)]], _refusal)
    options = [[_address(where)]] + ([[_first_try(device)]] if device.fresh else [])
    return budgets.take_first([_own(device)], options, _refusal)


def give_back_turn(taken: list[budgets.Budget]) -> None:
    """The right code spends nothing: a venue's phones share one address, and their players are not guessing."""
    budgets.give_back(taken)


def player_by_number(event: Event, number: int, sections: bool = False):
    """The one row a code can open: the event's player of that number (the (event, number) unique index); with
    `sections`, of the venue's event or any of its sections, wherever `event` is (numbers are one run across them,
    and a player moved to another section is still found at the old one's address)."""
    root = event.parent_id or event.pk
    where = Q(event_id=root) | Q(event__parent_id=root) if sections else Q(event=event)
    return Player.objects.filter(where, number=number).only("id", "event", "number", "code", "token", "name").order_by()


_NOBODY = "-" * CODE_LENGTH  # compared when no player has the number, so the time taken says nothing


def find_by_code(
    event: Event,
    text: str,
    address: str | None,
    among: list[Player] | None = None,
    sections: bool = False,
    device: Device | None = None,
) -> Player:
    """The player of `event` (or of `among`, a table's players; with `sections`, of the event or any of its
    sections) whose code this is, typed on `device` (`device_of` its key; None without one) at `address`.

    The code names its player by number, so it is compared with one player's secret, in constant time, after
    a turn is taken (`take_turn`): a wrong code spends the device's budget and the address's (or a first try).
    """
    number, secret = parse_code(text)
    taken = take_turn(device, address)
    player = single(player_by_number(event, number, sections))
    if player is not None and among is not None and player.pk not in {p.pk for p in among}:
        player = None
    right = hmac.compare_digest((player.code if player else _NOBODY).encode(), secret.encode())
    if player is None or not right:
        raise ServiceError(
            _("That code is not right. It is your number and the eight letters and digits after it on your card.")
        )
    give_back_turn(taken)
    return player
