"""What each result of the player's own game gives, as their phone words it (docs/prizes.md#before-the-last-results):
"Win: rating +7.2 · 1st: € 300.00", "Draw: a share of 1st + 2nd (places 1–2, 2 players): € 250.00 each", "Lose:
depends on other results: € 150.00 to € 200.00". Read from the round's stored outlook (services/outlooks.py)."""

from fractions import Fraction

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from swiss.prizemodel import PrizeRules
from tournament.services.prizes import money_text
from tournament.text import game_words, l10n


def _heads() -> dict[str, str]:
    return {
        "win": _("If you win"),
        "draw": game_words.gettext("If you draw"),
        "loss": _("If you lose"),
    }


def _money(value: str, rules: PrizeRules) -> str:
    """An amount with its currency, kept on one line on a narrow phone ("€ 250.00")."""
    return money_text(Fraction(value), rules).replace(" ", "\u00a0")


def _what(money: str | None, items: int | None, unit: str, rules: PrizeRules) -> str:
    parts = []
    if money is not None:
        parts.append(_money(money, rules))
    if items is not None:
        parts.append(f"{items} {unit}".strip())
    return l10n.join(parts)


def _share(s: dict, rules: PrizeRules) -> str:
    what = _what(s["money"], s["items"], s["unit"], rules)
    prizes = " + ".join(s["prizes"])
    if not s["shared"]:
        return _("%(prize)s: %(what)s") % {"prize": prizes, "what": what}
    count = s["last"] - s["first"] + 1
    return ngettext(
        "a share of %(prizes)s (places %(first)s–%(last)s, %(count)d player): %(what)s each",
        "a share of %(prizes)s (places %(first)s–%(last)s, %(count)d players): %(what)s each",
        count,
    ) % {"prizes": prizes, "first": s["first"], "last": s["last"], "count": count, "what": what}


def _span(low: str, high: str) -> str:
    """The least and the most the player can take; one figure when those are equal (the prizes or places
    differ, the amount does not)."""
    if low == high:
        return _("%(amount)s in every case") % {"amount": low}
    return _("%(low)s to %(high)s") % {"low": low, "high": high}


def prize_text(claim: dict, currency: str) -> str:
    """A stored prize claim (standings.prize_outlook.PrizeClaim.as_dict) in the reader's words."""
    rules = PrizeRules(currency=currency)
    if claim["code"] == "none":
        return _("no prize")
    if claim["code"] == "certain":
        return "; ".join(_share(s, rules) for s in claim["shares"])
    ranges = []
    if claim.get("money"):
        low, high = (_money(x, rules) for x in claim["money"])
        ranges.append(_span(low, high))
    if claim.get("items"):
        unit = claim.get("unit", "")
        low, high = (f"{x} {unit}".strip() for x in claim["items"])
        ranges.append(_span(low, high))
    if not ranges:
        return _("depends on other results")
    return _("depends on other results: %(range)s") % {"range": l10n.join(ranges)}


def gives_lines(gives: dict) -> list[dict]:
    """One line a result, win first: {"head", "rating" ("+7.2" or ""), "prize" (words or "")}."""
    heads = _heads()
    currency = gives.get("currency", "")
    lines = []
    for o in ("win", "draw", "loss"):
        d = gives.get(o)
        if not d:
            continue
        rating = d.get("rating", "")
        lines.append(
            {
                "outcome": o,
                "head": heads[o],
                "rating": _("rating %(change)s") % {"change": rating} if rating else "",
                "prize": prize_text(d["prize"], currency) if "prize" in d else "",
            }
        )
    return lines
