"""An event's prizes in the web app (docs/prizes.md): the stored list split over the final standings by
`standings.prizes`, the same code `manage.py prizes` runs on the event's file; whether the event is over (the
public standings and the phone show prizes only then); the organiser's list saved; the CSV export."""

from dataclasses import dataclass
from fractions import Fraction

from django.core.cache import cache
from django.db import transaction
from django.utils.translation import gettext, pgettext

import standings
from standings.prizes import Award, Awards, entrants_of, split
from swiss.prizemodel import Prize, PrizeRules, amount_text
from tournament.files.csv_exports import write_rows
from tournament.models import Event, Round
from tournament.records.prize_lists import prize_list_of, store_prize_list
from tournament.services import outlooks
from tournament.services.locks import changed
from tournament.services.standings import CACHE_SECONDS
from tournament.snapshot import event_to_file
from tournament.text import l10n


@dataclass(frozen=True)
class PrizeRow:
    """One player's line of the printed list and the CSV: what they take and from which award."""

    award: Award
    player_key: str
    name: str
    money: Fraction
    items: int


def event_over(event: Event) -> bool:
    """Every round published is complete, the planned Swiss rounds are played and no top cut is still to come."""
    rounds = list(event.rounds.values_list("state", "kind"))
    if not rounds or any(state != Round.State.COMPLETE for state, _kind in rounds):
        return False
    swiss = sum(1 for _state, kind in rounds if kind == "swiss")
    if event.planned_rounds and swiss < event.planned_rounds:
        return False
    return not (event.top_cut and all(kind == "swiss" for _state, kind in rounds))


def event_awards(event: Event) -> Awards | None:
    """The prize list split over the standings of every result so far; None when the event has no prize list."""
    prizes, rules = prize_list_of(event)
    if not prizes:
        return None
    doc = event_to_file(event)
    table = standings.compute(doc)
    return split(entrants_of(doc, table.rows), prizes, rules, doc.settings.scoring)


def final_awards(event: Event) -> Awards | None:
    """The awards once the event is over (None before, or without a prize list), worked out once per event
    version: the public standings and every player's phone read them."""
    key = f"prizes:{event.pk}:{event.created_at.timestamp()}:{event.version}"
    found = cache.get(key)
    if found is None:
        awards = event_awards(event) if prize_list_of(event)[0] and event_over(event) else None
        found = (awards,)
        cache.set(key, found, CACHE_SECONDS)
    return found[0]


def rows_of(event: Event, awards: Awards) -> list[PrizeRow]:
    names = dict(event.players.values_list("key", "name"))
    return [
        PrizeRow(award, key, names.get(key, key), award.money[i], award.items[i])
        for award in awards.awards
        for i, key in enumerate(award.players)
    ]


def money_text(value: Fraction, rules: PrizeRules) -> str:
    return f"{rules.currency} {amount_text(value)}".strip() if rules.currency else amount_text(value)


def what_text(award: Award, money: Fraction, items: int, rules: PrizeRules) -> str:
    """What one player takes from an award: "€ 40.00", "3 packs", or both."""
    parts = []
    if award.has_money:
        parts.append(money_text(money, rules))
    if award.has_items:
        parts.append(f"{items} {award.unit}".strip())
    return l10n.join(parts)


def remainder_text(award: Award, rules: PrizeRules) -> str:
    """What rounding the shares down leaves of an award ("€ 0.01", "2 packs"), or ""."""
    parts = []
    if award.money_remainder:
        parts.append(money_text(award.money_remainder, rules))
    if award.items_remainder:
        parts.append(f"{award.items_remainder} {award.unit}".strip())
    return l10n.join(parts)


def how_text(award: Award) -> str:
    """The award as a player reads it: "1st", or "shared 3rd prize + 4th prize (places 3–5)"."""
    if award.shared:
        return gettext("shared %(prizes)s, places %(first)s–%(last)s") % {
            "prizes": award.name,
            "first": award.first_place,
            "last": award.last_place,
        }
    return award.name


def player_prizes(event: Event, key: str) -> list[str]:
    """The sentences the player's phone shows once the event is over: "You won € 40.00 (shared 3rd + 4th,
    places 3–5)"."""
    awards = final_awards(event)
    if awards is None:
        return []
    return [
        gettext("You won %(what)s (%(how)s)") % {"what": what_text(a, m, n, awards.rules), "how": how_text(a)}
        for a, m, n in awards.of_player(key)
    ]


def prize_column(event: Event) -> dict[str, str]:
    """The public standings' prize column once the event is over: player key -> what they take."""
    awards = final_awards(event)
    if awards is None:
        return {}
    column: dict[str, list[str]] = {}
    for a in awards.awards:
        for i, key in enumerate(a.players):
            column.setdefault(key, []).append(what_text(a, a.money[i], a.items[i], awards.rules))
    return {key: "; ".join(texts) for key, texts in column.items()}


def prizes_csv(event: Event, awards: Awards) -> str:
    """One row a player and award: the prize, the places, the player, the amount, the items; then the prizes
    not awarded and the remainders, so the sheet adds up to the list."""
    rows: list[tuple] = []
    for r in rows_of(event, awards):
        rows.append(
            (
                r.award.name,
                f"{r.award.first_place}-{r.award.last_place}" if r.award.shared else "",
                r.name,
                amount_text(r.money) if r.award.has_money else "",
                r.items if r.award.has_items else "",
                r.award.unit,
                "",
            )
        )
    for a in awards.awards:
        if a.money_remainder or a.items_remainder:
            rows.append(
                (
                    a.name,
                    "",
                    "",
                    "",
                    "",
                    a.unit,
                    amount_text(a.money_remainder) if a.money_remainder else a.items_remainder,
                )
            )
    for p in awards.unawarded:
        rows.append((p.name, "", gettext("not awarded"), "", "", "", ""))
    return write_rows(
        [
            pgettext("CSV column", "prize"),
            pgettext("CSV column", "places"),
            pgettext("CSV column", "name"),
            pgettext("CSV column", "amount"),
            pgettext("CSV column", "items"),
            pgettext("CSV column", "unit"),
            pgettext("CSV column", "remainder"),
        ],
        rows,
    )


@transaction.atomic
def save_prize_list(event: Event, prizes: tuple[Prize, ...], rules: PrizeRules) -> None:
    """Keep the organiser's list; the public pages that show prizes are out of date (the event's version)."""
    store_prize_list(event, prizes, rules)
    changed(event)
    # What each result gives on the phones of the round being played reads the list.
    rnd = event.rounds.exclude(state=Round.State.DRAFT).order_by("-number").first()
    if rnd is not None and rnd.state != Round.State.COMPLETE:
        outlooks.refresh_soon(rnd)
