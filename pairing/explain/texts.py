"""The sentences of the explanations (docs/explanations.md): one builder per code, so every code is written out
once with its English template. A reason is a Message whose params are its facts (plain strings, numbers and
lists) plus the nested Messages its sentence is made of ("because", "side"); reason_json (pairing/explain)
gives the facts flat.

Scores are written as strings ("3", "1.5", "7/3"), ids as given in the input.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from swiss.messages import Message


def score_text(value: Fraction) -> str:
    """A score as the facts write it: "3", "1.5", or "7/3" when no short decimal is exact."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    d = value.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d != 1:
        return f"{value.numerator}/{value.denominator}"
    text = f"{float(value):.6f}".rstrip("0")
    return text if Fraction(text) == value else f"{value.numerator}/{value.denominator}"


def side(colour: str) -> Message:
    """White or Black, as a word the app translates ("W" / "B" in the engines)."""
    if colour == "W":
        return Message("side_white", "White")
    return Message("side_black", "Black")


def colour_word(colour: str) -> str:
    return "white" if colour == "W" else "black"


# ---------------------------------------------------------------- a player's reasons


def score_group(score: str, **facts: Any) -> Message:
    return Message("score_group", "Score group {score}.", score=score, **facts)


def float_down(because: Message, **facts: Any) -> Message:
    return Message(
        "float_down", "Floated down from the {from} group to the {to} group: {because}.", because=because, **facts
    )


def float_up(because: Message, **facts: Any) -> Message:
    return Message(
        "float_up",
        "Floated up from the {from} group to the {to} group to play {opponent_name}, who came down because {because}.",
        because=because,
        **facts,
    )


def bye(because: Message, **facts: Any) -> Message:
    return Message("bye", "Bye: {because}.", because=because, **facts)


def colour(colour: str, because: Message, **facts: Any) -> Message:
    """The colour, with the facts of its cause (the player's counts, who had the stronger claim, the place)."""
    facts = {k: v for k, v in because.params.items() if not isinstance(v, Message)} | facts
    return Message(
        "colour", "{side}: {because}.", side=side(colour), colour=colour_word(colour), because=because, **facts
    )


def rematch(reason: Message, **facts: Any) -> Message:
    # The sentence and parameters of the engine's own rematch warning (pairing/optimal.py), with the facts.
    return Message(
        "rematch", "Rematch at table {table}: {a} and {b} have already played ({reason}).", reason=reason, **facts
    )


def reason_played_everyone(**facts: Any) -> Message:
    return Message("reason_played_everyone", "{player} has already played every other player in this round", **facts)


def reason_no_rematch_free_pairing(**facts: Any) -> Message:
    return Message(
        "reason_no_rematch_free_pairing", "no pairing of these {count} players avoids every rematch", **facts
    )


def colour_repeat(colour: str, **facts: Any) -> Message:
    return Message(
        "colour_repeat", "{side} a third time in a row.", side=side(colour), colour=colour_word(colour), **facts
    )


def colour_difference(**facts: Any) -> Message:
    # The sentence the app already has for this code (services.rounds.colour_breaks).
    return Message(
        "colour_difference", "{player}'s colour difference would be {difference}, past 2 (table {table}).", **facts
    )


# ---------------------------------------------------------------- why a player floated


def why_odd_group(**facts: Any) -> Message:
    if facts.get("size") == 1:
        return Message("why_alone", "they were alone in the {group} group", **facts)
    return Message("why_odd_group", "the {group} group had an odd number of players ({size})", **facts)


def why_no_opponent(**facts: Any) -> Message:
    return Message(
        "why_no_opponent",
        "none of the others the {group} group left unpaired ({left}) could be their opponent (met before, or both "
        "due the same colour absolutely)",
        **facts,
    )


def why_no_unmet(**facts: Any) -> Message:
    return Message("why_no_unmet", "they had already played everyone else in the {group} group", **facts)


def why_lower_group(**facts: Any) -> Message:
    return Message(
        "why_lower_group",
        "the {group} group could have made more pairs ({most}, not {pairs}), but that would leave the rest of the "
        "round unpairable or the bye to a player who may not have it (C.4, C.5)",
        **facts,
    )


def why_fewest_floats(**facts: Any) -> Message:
    return Message(
        "why_fewest_floats",
        "of all pairings with the fewest rematches and second byes, this one has the smallest sum of squared point "
        "differences ({spread}, the bye counted against the lowest score)",
        **facts,
    )


# ---------------------------------------------------------------- why the bye


def why_bye_requested() -> Message:
    return Message("why_bye_requested", "a pre-awarded bye")


# A bye asked for in the round (pairing.event.requested_byes): by kind, its code and its words.
ASKED_BYES = {
    "half_bye": ("why_asked_half_bye", "asked for a half-point bye in this round"),
    "full_bye": ("why_asked_full_bye", "asked for a full-point bye in this round"),
    "zero_bye": ("why_asked_zero_bye", "asked for a zero-point bye in this round: absent"),
}


def asked_bye(kind: str, **facts: Any) -> Message:
    """The reason of a player the pairing leaves out because they asked for a bye of this kind in the round."""
    if kind not in ASKED_BYES:
        raise ValueError(f"{kind!r} is not a bye a player may ask for (one of {', '.join(ASKED_BYES)})")
    code, words = ASKED_BYES[kind]
    return bye(Message(code, words), cause="requested", kind=kind, **facts)


def why_bye_lowest(**facts: Any) -> Message:
    return Message(
        "why_bye_lowest",
        "the lowest-ranked player who may have it: everyone ranked below ({below}) has had a bye or may not have one",
        **facts,
    )


def why_bye_completion(**facts: Any) -> Message:
    return Message(
        "why_bye_completion",
        "giving it to any lower-ranked player who may have it ({count}) would leave the rest unpairable (C.4)",
        **facts,
    )


def why_bye_last_group(**facts: Any) -> Message:
    return Message(
        "why_bye_last_group",
        "left over by the last group ({group}); not the lowest-ranked player who may have it: other criteria of the "
        "round came first, and no short sentence says which",
        **facts,
    )


def why_bye_unplayed(**facts: Any) -> Message:
    return Message(
        "why_bye_unplayed",
        "left over by the last group ({group}), and every lower-ranked player who may have it has played fewer games "
        "({played} played here; C.9 gives the bye to the player with the fewest unplayed games)",
        **facts,
    )


def why_bye_rating() -> Message:
    return Message("why_bye_rating", "round one by rating: the lowest-rated player who has not had a bye")


def why_bye_fewest_floats(**facts: Any) -> Message:
    return Message(
        "why_bye_fewest_floats",
        "every pairing giving it to a player ranked below has more rematches or second byes or a larger sum of "
        "squared point differences",
        **facts,
    )


def why_bye_all_had(**facts: Any) -> Message:
    return Message("why_bye_all_had", "every player in this round has already had one", **facts)


def why_bye_forced(**facts: Any) -> Message:
    return Message("why_bye_forced", "giving it to a player without one would force a rematch", **facts)


# ---------------------------------------------------------------- why the colour


def why_absolute(**facts: Any) -> Message:
    return Message(
        "why_absolute", "their absolute preference ({whites} White, {blacks} Black, last games {last})", **facts
    )


def why_balance(**facts: Any) -> Message:
    return Message("why_balance", "it evens out their colours ({whites} White, {blacks} Black)", **facts)


def why_alternation(**facts: Any) -> Message:
    return Message("why_alternation", "it alternates with their last colours ({last})", **facts)


def why_opponent_preference(**facts: Any) -> Message:
    return Message(
        "why_opponent_preference", "they had no preference of their own; their opponent's preference decided", **facts
    )


def why_stronger_preference(**facts: Any) -> Message:
    return Message(
        "why_stronger_preference", "both were due the same colour; {stronger_name} had the stronger claim", **facts
    )


def why_history(**facts: Any) -> Message:
    return Message(
        "why_history",
        "both were due the same colour equally; the last game in which their colours differed decided",
        **facts,
    )


def why_higher_ranked(**facts: Any) -> Message:
    return Message(
        "why_higher_ranked",
        "both were due the same colour equally with the same colour history; the higher-ranked {higher_name} has "
        "their preference",
        **facts,
    )


def why_initial(colour: str, **facts: Any) -> Message:
    return Message(
        "why_initial",
        "no preference on either side: the event's initial colour ({initial_side} for pairing number 1) and the "
        "parity of the higher-ranked player's place ({number})",
        initial_side=side(colour),
        **facts,
    )


def why_lot(colour: str, **facts: Any) -> Message:
    return Message(
        "why_lot",
        "no preference on either side: the initial colour drawn by lot ({initial_side} for pairing number 1) and "
        "the parity of the higher-ranked player's place ({number})",
        initial_side=side(colour),
        **facts,
    )


def why_higher_placed(**facts: Any) -> Message:
    return Message(
        "why_higher_placed", "either way the colours were as good; the higher-placed {higher_name} has White", **facts
    )


def why_seed(**facts: Any) -> Message:
    return Message(
        "why_seed", "either way the colours were as good and the two were level; the round's seed decided", **facts
    )


# ---------------------------------------------------------------- the organiser's log


def note_group(**facts: Any) -> Message:
    return Message(
        "note_group", "Group {score}: {size} in all, {moved_down} of them from above; pairs made: {pairs}.", **facts
    )


def note_odd(**facts: Any) -> Message:
    return Message("note_odd", "An odd number of players: one moves down (C.6, as many pairs as possible).", **facts)


def note_most_pairs(**facts: Any) -> Message:
    return Message(
        "note_most_pairs",
        "The most pairs this group allows is {pairs} (C.6); the rest move down ({left}).",
        **facts,
    )


def note_completion(**facts: Any) -> Message:
    return Message(
        "note_completion",
        "This group could make more pairs ({most}) but makes {pairs}, so that the rest of the round can be paired "
        "and the bye go to a player who may have it (C.4, C.5).",
        **facts,
    )


def note_bye(**facts: Any) -> Message:
    return Message("note_bye", "The bye goes to {player_name}.", **facts)


def note_fewest_floats(**facts: Any) -> Message:
    return Message(
        "note_fewest_floats",
        "Players move down from here because the round's pairing has the fewest rematches and second byes, then "
        "the smallest sum of squared point differences ({spread}).",
        **facts,
    )
