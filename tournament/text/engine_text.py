"""The engines' messages in the reader's language (docs/languages.md).

The pairing and standings engines are pure Python: their warnings and refusals are
`swiss.messages.Message`s — an English sentence with a stable code and parameters. Rounds store
them as `{"code", "params", "text"}` (`Message.as_dict`); this module turns either form into the
active language. A code it does not know falls back to the English sentence, so a newer engine never
breaks a page; a test checks that every code the engines use is known here.
"""

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from swiss.messages import Message
from tournament.text import game_words
from tournament.text.event_file_text import FILE_TEXTS
from tournament.text.explain_text import EXPLAIN_TEXTS, WHY_NOT_RULES, why_not  # noqa: F401  (WHY_NOT_RULES read here too)
from tournament.text.outlook_text import OUTLOOK_TEXTS

# Messages without a count. Placeholders are named as in the engines' parameters.
TEXTS = {
    # pairing warnings (stored with the round, shown with the draft)
    "rematch": _("Rematch at table %(table)s: %(a)s and %(b)s have already played (%(reason)s)."),
    "reason_all_had_bye": _("every player in this round has already had one"),
    "reason_bye_forces_rematch": game_words.gettext_lazy("giving it to a player without one would force a rematch"),
    "reason_round_one_rating": _("round one by rating pairs top half against bottom half"),
    "reason_played_everyone": _("%(player)s has already played every other player in this round"),
    "reason_swapped_by_hand": _("swapped by hand"),
    "swap_rematch": _("%(a)s and %(b)s have already played (table %(table)s)"),
    "swapped_by_hand": _("Swapped %(first)s and %(second)s by hand."),
    "swap_rematch_before": _("Rematch: %(a)s and %(b)s have played each other before."),
    "swap_second_bye_before": game_words.gettext_lazy("Second bye: %(player)s has had a bye before."),
    # FIDE's absolute colour criteria a swap or a flip by hand breaks (services.rounds.colour_breaks)
    "flipped_by_hand": _("Flipped the colours of table %(table)s by hand: %(white)s has White."),
    "colour_third_white": _("%(player)s has White a third time in a row (table %(table)s)."),
    "colour_third_black": _("%(player)s has Black a third time in a row (table %(table)s)."),
    "colour_difference": _("%(player)s's colour difference would be %(difference)s, past 2 (table %(table)s)."),
    # pairing refusals
    "duplicate_entrant": _("a player appears twice in the pairing input"),
    "too_few_players": _("at least two players are needed to pair a round; register or re-activate players"),
    "dutch_no_pairing": _(
        "no pairing of round %(round)s meets the absolute criteria (no rematch, colour rules, "
        "one bye to a player who has had none)"
    ),
    "swap_awarded_bye": game_words.gettext_lazy("%(player)s holds a pre-awarded bye this round; it cannot be swapped"),
    "swap_not_paired": _("%(player)s is not paired in round %(round)s"),
    "swap_same_player": _("choose two different players to swap"),
    "round_numbers_start_at_1": _("round numbers start at 1"),
    "top_cut_started": _("the top cut has started; round %(round)s cannot be a Swiss round"),
    "standings_failed": _("the standings cannot be computed: %(error)s"),
    "top_cut_not_started": _("the top cut has not started; its first round is seeded from the final standings"),
    "round_needs_winner": _("round %(round)s still needs a winner at table %(table)s"),
    "top_cut_size": _("a top cut has 2, 4, 8, 16… players, not %(size)s"),
    "top_cut_over": _("the final has been played: the top cut is over"),
    "top_cut_needs_winner": _("the match %(a)s v %(b)s needs exactly one winner before the next round"),
    "top_cut_no_final": _("the top cut has no final yet"),
    # standings refusals
    "unregistered_player": _("round %(round)s: player %(player)s is not registered in the event"),
    # impossible game counts in a file (swiss.model.games_problem; the desk's are in services)
    "games_negative": _("game counts cannot be negative"),
    "games_empty": _("a result needs at least one game"),
    "games_too_many_wins": _("in best of %(best_of)s nobody wins more than %(need)s games"),
    "games_both_win": _("in best of %(best_of)s only one side can win %(need)s games"),
    "games_too_many_draws": _("in best of %(best_of)s a match has at most %(best_of)s drawn games"),
    "games_elimination_draw": _("an elimination match cannot end in a draw"),
    **OUTLOOK_TEXTS,
    **FILE_TEXTS,
    **EXPLAIN_TEXTS,
}

# Codes whose single parameter `problem` is already in the reader's language (a Django ValidationError
# raised by the adapter), shown as it is.
ALREADY_TRANSLATED = frozenset({"file_player_name", "file_section_refused"})


def file_error(error) -> str:
    """A swiss-event file refusal (`EventFileError`) in the active language: the place, then the problem."""
    problem = translate(getattr(error, "message", str(error)))
    return f"{error.path}: {problem}" if getattr(error, "path", "") else problem


# Why a player is left out of a pairing ("left_out", pairing.event.left_out): by reason code.
LEFT_OUT_REASONS = {
    "later": _("enters in round %(round)s"),
    "withdrawn": _("withdrew after round %(round)s"),
    "half_bye": _("a half-point bye asked for"),
    "full_bye": _("a full-point bye asked for"),
    "zero_bye": _("absent: a zero-point bye"),
}


def _left_out_names(raw: Mapping[str, Any]) -> str:
    """The players a pairing leaves out, each with the reason: "Anna (withdrew after round 2), Bo (…)"."""
    parts = []
    for name, why, n in raw["players"]:
        if why == "withdrawn" and not n:
            reason = gettext("withdrew before round 1")
        else:
            reason = str(LEFT_OUT_REASONS[why]) % {"round": number_format(n) if n is not None else ""}
        parts.append(gettext("%(name)s (%(reason)s)") % {"name": name, "reason": reason})
    names = gettext(", ").join(parts)
    more = raw["count"] - len(raw["players"])
    if more > 0:
        names += ngettext(" and %(more)s more", " and %(more)s more", more) % {"more": number_format(more)}
    return names


def _counted(code: str, shown: dict[str, Any], raw: Mapping[str, Any]) -> str | None:
    """Messages whose wording depends on a number: `raw` chooses the plural form, `shown` fills it in."""
    if code == "left_out":
        return gettext("Left out of round %(round)s: %(names)s.") % {
            "round": shown["round"],
            "names": _left_out_names(raw),
        }
    if code == "too_few_players_left_out":
        return gettext("at least two players are needed to pair round %(round)s; left out: %(names)s") % {
            "round": shown["round"],
            "names": _left_out_names(raw),
        }
    if code == "second_bye":
        return (
            game_words.ngettext(
                "%(player)s gets a bye again, having had %(byes)s bye (%(reason)s).",
                "%(player)s gets a bye again, having had %(byes)s byes (%(reason)s).",
                raw["byes"],
            )
            % shown
        )
    if code == "swap_second_bye":
        return (
            game_words.ngettext(
                "%(player)s would get a bye again, having had %(byes)s bye",
                "%(player)s would get a bye again, having had %(byes)s byes",
                raw["byes"],
            )
            % shown
        )
    if code == "top_cut_too_few":
        return (
            ngettext(
                "only %(count)s player is left: too few for a top %(size)s",
                "only %(count)s players are left: too few for a top %(size)s",
                raw["count"],
            )
            % shown
        )
    if code == "reason_no_rematch_free_pairing":
        return (
            ngettext(
                "no pairing of this %(count)s player avoids every rematch",
                "no pairing of these %(count)s players avoids every rematch",
                raw["count"],
            )
            % shown
        )
    if code == "results_outstanding":
        tables = gettext(", ").join(
            (gettext("table %(table)s: %(a)s v %(b)s") if t else gettext("%(a)s v %(b)s"))
            % {"table": t, "a": a, "b": b}
            for t, a, b in raw["pairs"]
        )
        more = raw["count"] - len(raw["pairs"])
        if more > 0:
            tables += ngettext(" and %(more)s more", " and %(more)s more", more) % {"more": more}
        return ngettext(
            "round %(round)s still has %(count)s result outstanding (%(tables)s); enter it before pairing round %(next)s",
            "round %(round)s still has %(count)s results outstanding (%(tables)s); "
            "enter them before pairing round %(next)s",
            raw["count"],
        ) % (shown | {"tables": tables})
    return None


def _parts(message: Message | Mapping | str) -> tuple[str | None, dict[str, Any], str]:
    if isinstance(message, Message):
        return message.code, dict(message.params), str(message)
    if isinstance(message, Mapping):
        return message.get("code"), dict(message.get("params") or {}), str(message.get("text", ""))
    return None, {}, str(message)


def translate(message: Message | Mapping | str) -> str:
    """An engine message (a Message, its stored dict, or an older plain string) in the active language."""
    code, raw, english = _parts(message)
    if code is None:
        return english
    shown = {
        k: translate(v) if isinstance(v, Message | Mapping) else number_format(v) if isinstance(v, int) else v
        for k, v in raw.items()
    }
    try:
        text = _counted(code, shown, raw) or why_not(code, shown, raw)
        if code in ALREADY_TRANSLATED:
            text = str(shown["problem"])
        elif text is None:
            template = TEXTS.get(code)
            text = str(template) % shown if template is not None else english
    except (KeyError, TypeError, ValueError):
        return english  # parameters that do not fit the catalog's sentence: the engine's own words
    return text


def sentence(message: Message | Mapping | str) -> str:
    """A refusal as a sentence for a page: capitalised, with a full stop."""
    text = translate(message)
    if not text:
        return text
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "。", "!", "?")) else text + gettext(".")


def translate_all(messages: Iterable[Message | Mapping | str]) -> list[str]:
    return [translate(m) for m in messages]


# The codes the engines may produce; tests/test_engine_text.py checks each has a translation.
KNOWN_CODES = (
    frozenset(TEXTS)
    | ALREADY_TRANSLATED
    | {
        "second_bye",
        "swap_second_bye",
        "top_cut_too_few",
        "reason_no_rematch_free_pairing",
        "results_outstanding",
        "left_out",
        "too_few_players_left_out",
        "colour_clash",
        "worse",
        "bye",
        "better_found",
    }
)


def _is_note(warning) -> bool:
    """A stored pairing message that is a note, not a rule bent: who the pairing left out (pairing.left_out)."""
    return isinstance(warning, dict) and warning.get("code") == "left_out"


def round_warnings(stored: list) -> list[str]:
    """A round's stored pairing warnings (`Round.warnings`) in the active language: the rules it had to bend."""
    return translate_all(w for w in stored if not _is_note(w))


def round_notes(stored: list) -> list[str]:
    """What the pairing says beside its warnings (`Round.warnings`) in the active language: who it left out, why."""
    return translate_all(w for w in stored if _is_note(w))
