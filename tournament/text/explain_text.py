"""Why a round is paired as it is, and why two players are not paired together (pairing/explain,
docs/explanations.md), in the reader's language: each reason's sentence by code, and the answers of "why not" whose
sentence depends on the rule, the bracket or the colour (`why_not`). `engine_text` translates them with the engines'
other messages, by code."""

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament.text import game_words

EXPLAIN_TEXTS = {
    # why a round is paired as it is (pairing/explain, docs/explanations.md)
    "bye": game_words.gettext_lazy("Bye: %(because)s."),
    "colour": _("%(side)s: %(because)s."),
    "colour_repeat": _("%(side)s a third time in a row."),
    "float_down": _("Floated down from the %(from)s group to the %(to)s group: %(because)s."),
    "float_up": _(
        "Floated up from the %(from)s group to the %(to)s group to play %(opponent_name)s, who came down because %(because)s."
    ),
    "note_bye": game_words.gettext_lazy("The bye goes to %(player_name)s."),
    "note_completion": game_words.gettext_lazy(
        "This group could make more pairs (%(most)s) but makes %(pairs)s, so that the rest of the round can be paired and the bye go to a player who may have it (C.4, C.5)."
    ),
    "note_fewest_floats": game_words.gettext_lazy(
        "Players move down from here because the round's pairing has the fewest rematches and second byes, then the smallest sum of squared point differences (%(spread)s)."
    ),
    "note_group": _("Group %(score)s: %(size)s in all, %(moved_down)s of them from above; pairs made: %(pairs)s."),
    "note_most_pairs": _("The most pairs this group allows is %(pairs)s (C.6); the rest move down (%(left)s)."),
    "note_odd": _("An odd number of players: one moves down (C.6, as many pairs as possible)."),
    "score_group": _("Score group %(score)s."),
    "side_black": _("Black"),
    "side_white": _("White"),
    "why_absolute": _("their absolute preference (%(whites)s White, %(blacks)s Black, last games %(last)s)"),
    "why_alone": _("they were alone in the %(group)s group"),
    "why_alternation": _("it alternates with their last colours (%(last)s)"),
    "why_balance": _("it evens out their colours (%(whites)s White, %(blacks)s Black)"),
    "why_asked_full_bye": _("asked for a full-point bye in this round"),
    "why_asked_half_bye": _("asked for a half-point bye in this round"),
    "why_asked_zero_bye": _("asked for a zero-point bye in this round: absent"),
    "why_bye_all_had": _("every player in this round has already had one"),
    "why_bye_completion": _(
        "giving it to any lower-ranked player who may have it (%(count)s) would leave the rest unpairable (C.4)"
    ),
    "why_bye_fewest_floats": game_words.gettext_lazy(
        "every pairing giving it to a player ranked below has more rematches or second byes or a larger sum of squared point differences"
    ),
    "why_bye_forced": game_words.gettext_lazy("giving it to a player without one would force a rematch"),
    "why_bye_last_group": _(
        "left over by the last group (%(group)s); not the lowest-ranked player who may have it: other criteria of the "
        "round came first, and no short sentence says which"
    ),
    "why_bye_lowest": game_words.gettext_lazy(
        "the lowest-ranked player who may have it: everyone ranked below (%(below)s) has had a bye or may not have one"
    ),
    "why_bye_unplayed": _(
        "left over by the last group (%(group)s), and every lower-ranked player who may have it has played fewer "
        "games (%(played)s played here; C.9 gives the bye to the player with the fewest unplayed games)"
    ),
    "why_bye_rating": game_words.gettext_lazy("round one by rating: the lowest-rated player who has not had a bye"),
    "why_bye_requested": game_words.gettext_lazy("a pre-awarded bye"),
    "why_fewest_floats": game_words.gettext_lazy(
        "of all pairings with the fewest rematches and second byes, this one has the smallest sum of squared point differences (%(spread)s, the bye counted against the lowest score)"
    ),
    "why_higher_placed": _("either way the colours were as good; the higher-placed %(higher_name)s has White"),
    "why_higher_ranked": _(
        "both were due the same colour equally with the same colour history; the higher-ranked %(higher_name)s has their preference"
    ),
    "why_history": _("both were due the same colour equally; the last game in which their colours differed decided"),
    "why_initial": _(
        "no preference on either side: the event's initial colour (%(initial_side)s for pairing number 1) and the parity of the higher-ranked player's place (%(number)s)"
    ),
    "why_lot": _(
        "no preference on either side: the initial colour drawn by lot (%(initial_side)s for pairing number 1) and the parity of the higher-ranked player's place (%(number)s)"
    ),
    "why_lower_group": game_words.gettext_lazy(
        "the %(group)s group could have made more pairs (%(most)s, not %(pairs)s), but that would leave the rest of the round unpairable or the bye to a player who may not have it (C.4, C.5)"
    ),
    "why_no_opponent": _(
        "none of the others the %(group)s group left unpaired (%(left)s) could be their opponent (met before, or both due the same colour absolutely)"
    ),
    "why_no_unmet": _("they had already played everyone else in the %(group)s group"),
    "why_odd_group": _("the %(group)s group had an odd number of players (%(size)s)"),
    "why_opponent_preference": _("they had no preference of their own; their opponent's preference decided"),
    "why_seed": _("either way the colours were as good and the two were level; the round's seed decided"),
    "why_stronger_preference": _("both were due the same colour; %(stronger_name)s had the stronger claim"),
    "paired_by_hand": _("Paired by the organiser by hand (%(time)s)."),
    "colours_by_hand": _("Colours flipped by the organiser by hand (%(time)s)."),
    # why two players are not paired together (pairing/explain/why_not.py; worse, bye and better_found below)
    "why_not_same_player": _("choose two different players"),
    "why_not_other_players": _("the pairing's players are not the round's: it cannot be explained"),
    "paired": _("%(a)s and %(b)s are paired together (table %(table)s)"),
    "not_in_round": game_words.gettext_lazy(
        "%(player)s is not paired in round %(round)s (absent, or holding a pre-awarded bye)"
    ),
    "by_rating": _(
        "round one by rating pairs the top half against the bottom half in order of rating: "
        "%(a)s is %(place_a)s and %(b)s is %(place_b)s of %(count)s"
    ),
    "met_before": _("%(a)s and %(b)s played each other in round %(round)s"),
    "other_group": _(
        "%(a)s (%(score_a)s) and %(b)s (%(score_b)s) are in different score groups, and no float was needed "
        "between them"
    ),
    "lot": _(
        "pairing %(a)s with %(b)s gives a round exactly as good by every cost; the seed (%(seed)s) chose this one"
    ),
    "no_completion": _(
        "with %(a)s and %(b)s paired together, the rest of the round cannot be paired by the absolute criteria (C.4)"
    ),
    "dutch_order": _(
        "every criterion is equal in the bracket of score %(bracket)s: the Dutch order of transpositions and "
        "exchanges comes to this round's pairs there (%(this_round)s) before the pairs of the round with %(a)s and "
        "%(b)s (%(with_pair)s)"
    ),
}

# What each rule of a "worse", "bye" or "better_found" answer measures (pairing/explain/why_not.py RULE_WORDS).
WHY_NOT_RULES = {
    "rematches": _("rematches"),
    "second_byes": game_words.gettext_lazy("second byes"),
    "spread": _("the sum of squared point differences"),
    "bye_rank": game_words.gettext_lazy("the players ranked below the bye"),
    "colour": _("colour trouble"),
    "C.5": game_words.gettext_lazy("C.5, the score of the bye"),
    "C.6": _("C.6, the number of downfloaters"),
    "C.7": _("C.7, the scores of the downfloaters"),
    "C.8": _("C.8, the scores of the downfloaters not paired in the next score group"),
    "C.9": game_words.gettext_lazy("C.9, the unplayed games of the bye"),
    "C.10": _("C.10, pairs whose colour difference would pass 2"),
    "C.11": _("C.11, pairs where a player would have the same colour a third time"),
    "C.12": _("C.12, players without their colour preference"),
    "C.13": _("C.13, players without their strong colour preference"),
    "C.14": _("C.14, players floating down again after last round's downfloat"),
    "C.15": _("C.15, players floating up again after last round's upfloat"),
    "C.16": _("C.16, players floating down again after a downfloat two rounds ago"),
    "C.17": _("C.17, players floating up again after an upfloat two rounds ago"),
    "C.18": _("C.18, the scores of the players floating down again after last round's downfloat"),
    "C.19": _("C.19, the scores of the opponents of the players floating up again after last round's upfloat"),
    "C.20": _("C.20, the scores of the players floating down again after a downfloat two rounds ago"),
    "C.21": _("C.21, the scores of the opponents of the players floating up again after an upfloat two rounds ago"),
}
COLOUR_WORDS = {"white": _("White"), "black": _("Black")}


def why_not(code: str, shown: dict[str, Any], raw: Mapping[str, Any]) -> str | None:
    """The answers of why_not whose sentence depends on the rule, the bracket or the colour."""
    if code == "colour_clash":
        colour = {"colour": COLOUR_WORDS[raw["colour"]]}
        return gettext(
            "%(a)s and %(b)s both must have %(colour)s (an absolute colour preference), so they may not meet"
        ) % (shown | colour)
    if code == "met_before" and raw.get("round") is None:  # the optimal engine knows who met, not when
        return (
            gettext(
                "%(a)s and %(b)s have played each other before (rematches: %(this_round)s in this round, "
                "%(with_pair)s with the pair)"
            )
            % shown
        )
    if code not in ("worse", "bye", "better_found") or "rule" not in raw:
        return None  # a "bye" without a rule is pairing.explain's reason for a bye: TEXTS has it
    values = shown | {"rule": WHY_NOT_RULES[raw["rule"]]}
    if code == "better_found":
        text = gettext(
            "a round pairing %(a)s with %(b)s measures better by %(rule)s (%(with_pair)s against %(this_round)s in "
            "this round): this round is not the best by that measure"
        )
    elif code == "bye" and "bracket" in raw:
        text = game_words.gettext(
            "%(player)s has this round's bye: a round pairing %(a)s with %(b)s is worse by %(rule)s in the bracket "
            "of score %(bracket)s (%(this_round)s in this round, %(with_pair)s with the pair)"
        )
    elif code == "bye":
        text = game_words.gettext(
            "%(player)s has this round's bye: a round pairing %(a)s with %(b)s is worse by %(rule)s "
            "(%(this_round)s in this round, %(with_pair)s with the pair)"
        )
    elif "bracket" in raw:
        text = gettext(
            "pairing %(a)s with %(b)s makes the round worse by %(rule)s in the bracket of score %(bracket)s "
            "(%(this_round)s in this round, %(with_pair)s with the pair)"
        )
    else:
        text = gettext(
            "pairing %(a)s with %(b)s makes the round worse by %(rule)s (%(this_round)s in this round, "
            "%(with_pair)s with the pair)"
        )
    return text % values
