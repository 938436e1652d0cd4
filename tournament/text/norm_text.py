"""FIDE title norms in the reader's language (standings/norms.py, docs/ratings.md): a norm's name, its state,
what a player needs from their remaining rounds, and each condition with its figures."""

from fractions import Fraction

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from standings.norms import ACHIEVED, NOT_POSSIBLE, POSSIBLE, Condition, NormChance
from tournament.text import l10n

# "a GM norm": each with its own article, as English and the translations need.
NORM_NAMES = {
    "GM": gettext_lazy("a GM norm"),
    "IM": gettext_lazy("an IM norm"),
    "WGM": gettext_lazy("a WGM norm"),
    "WIM": gettext_lazy("a WIM norm"),
}
STATUS = {
    ACHIEVED: gettext_lazy("Achieved"),
    POSSIBLE: gettext_lazy("Possible"),
    NOT_POSSIBLE: gettext_lazy("Not possible"),
}
CONDITIONS = {
    "games": gettext_lazy("Games (played or paired)"),
    "titled": gettext_lazy("Title holders (CM and WCM do not count)"),
    "norm_title": gettext_lazy("Opponents with the norm's title or a higher one"),
    "other_federations": gettext_lazy("Federations other than the player's"),
    "own_federation": gettext_lazy("Opponents from the player's federation"),
    "one_federation": gettext_lazy("Opponents from any one other federation"),
    "floor": gettext_lazy("Lowest rating (the rating floor)"),
    "average": gettext_lazy("Average rating of the opponents"),
    "performance": gettext_lazy("Performance"),
    "min_score": gettext_lazy("Points (at least 35 %)"),
}
STATES = {"met": gettext_lazy("met"), "can": gettext_lazy("can be met"), "not": gettext_lazy("not met")}


def state_of(condition: Condition) -> str:
    """met, can (be met) or not (met): also the CSS class the page gives it."""
    return "met" if condition.met else "can" if condition.can_be_met else "not"


def figures(condition: Condition) -> str:
    """The condition's figure and its bound: "5 (at least 5)", "1 (at most 5)", "1900, raised to 2200"."""
    if condition.code == "floor":
        if not condition.amount:
            return "—"
        value, bound = l10n.number(condition.amount), l10n.number(condition.bound)
        if condition.amount < condition.bound:
            return _("%(value)s, raised to %(floor)s") % {"value": value, "floor": bound}
        return _("%(value)s (floor %(floor)s)") % {"value": value, "floor": bound}
    show = l10n.points if condition.code == "min_score" else l10n.number
    values = {"value": show(condition.amount), "bound": show(condition.bound)}
    if condition.at_most:
        return _("%(value)s (at most %(bound)s)") % values
    return _("%(value)s (at least %(bound)s)") % values


def needs(chance: NormChance) -> str:
    """What the player needs from their remaining rounds, for the organiser's table ("½ from the last round")."""
    count = chance.remaining
    if chance.status == ACHIEVED:
        if count:
            return ngettext(
                "made in the first %(games)s game; the later games may be left out",
                "made in the first %(games)s games; the later games may be left out",
                chance.counted,
            ) % {"games": chance.counted}
        return _("made")
    if chance.status == NOT_POSSIBLE:
        return _("no longer possible")
    if chance.needed is None:
        return ngettext(
            "only if the last opponent is rated high enough",
            "only if the last %(count)s opponents are rated high enough",
            count,
        ) % {"count": count}
    if chance.needed == 0:
        return ngettext(
            "no more points: the last round still to be played",
            "no more points: the last %(count)s rounds still to be played",
            count,
        ) % {"count": count}
    return ngettext(
        "%(points)s from the last round",
        "%(points)s from the last %(count)s rounds",
        count,
    ) % {"points": l10n.points(chance.needed), "count": count}


def player_line(chance: NormChance) -> str:
    """The sentence on a player's own page for a norm made or still in reach ("" for one out of reach)."""
    count, norm = chance.remaining, NORM_NAMES[chance.title]
    if chance.status == ACHIEVED:
        return _("You have made %(norm)s.") % {"norm": norm}
    if chance.status != POSSIBLE:
        return ""
    if chance.needed is None:
        return ngettext(
            "Still in reach: %(norm)s, if your last opponent is rated high enough.",
            "Still in reach: %(norm)s, if your last %(count)s opponents are rated high enough.",
            count,
        ) % {"norm": norm, "count": count}
    if chance.needed == 0:
        return ngettext(
            "You have the points for %(norm)s: the last round is still to be played.",
            "You have the points for %(norm)s: the last %(count)s rounds are still to be played.",
            count,
        ) % {"norm": norm, "count": count}
    return ngettext(
        "You need %(points)s from the last round for %(norm)s.",
        "You need %(points)s from the last %(count)s rounds for %(norm)s.",
        count,
    ) % {"points": l10n.points(Fraction(chance.needed)), "norm": norm, "count": count}


def public_line(name: str, chance: NormChance) -> str:
    """The same for the player's public page, which speaks about them."""
    count, norm = chance.remaining, NORM_NAMES[chance.title]
    values = {"name": name, "norm": norm, "count": count}
    if chance.status == ACHIEVED:
        return _("%(name)s has made %(norm)s.") % values
    if chance.status != POSSIBLE:
        return ""
    if chance.needed is None:
        return (
            ngettext(
                "Still in reach for %(name)s: %(norm)s, if the last opponent is rated high enough.",
                "Still in reach for %(name)s: %(norm)s, if the last %(count)s opponents are rated high enough.",
                count,
            )
            % values
        )
    if chance.needed == 0:
        return (
            ngettext(
                "%(name)s has the points for %(norm)s: the last round is still to be played.",
                "%(name)s has the points for %(norm)s: the last %(count)s rounds are still to be played.",
                count,
            )
            % values
        )
    return ngettext(
        "%(name)s needs %(points)s from the last round for %(norm)s.",
        "%(name)s needs %(points)s from the last %(count)s rounds for %(norm)s.",
        count,
    ) % (values | {"points": l10n.points(Fraction(chance.needed))})
