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
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from swiss.messages import Message
from tournament.text import game_words
from tournament.text.outlook_text import OUTLOOK_TEXTS
from tournament.text.trf_text import TRF_TEXTS

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
    # swiss-event file refusals (the place in the file comes before them)
    "file_not_a_number": _('expected a number such as 3, 0.33, "0.33" or "1/2"'),
    "file_bad_number": _("%(value)s is not a number such as 3, 0.33 or 1/2 of at most %(limit)s characters"),
    "file_not_whole": _("expected a whole number, got %(value)s"),
    "file_too_small": _("must be at least %(minimum)s"),
    "file_too_large": _("must be at most %(maximum)s"),
    "file_not_text": _("expected a non-empty string"),
    "file_not_bool": _("expected true or false"),
    "file_not_object": _("expected an object"),
    "file_not_list": _("expected a list"),
    "file_unknown_key": _("unknown key"),
    "file_not_utf8": _("the file is not UTF-8 text"),
    "file_not_json": _("not valid JSON (line %(line)s, column %(column)s: %(problem)s)"),
    "file_format": _('expected "%(format)s"'),
    "file_version": _("expected %(version)s"),
    "file_unknown_preset": _("unknown preset %(preset)s; one of %(choices)s"),
    "file_scoring_order": _("a win must score more than a loss, and a draw between the two"),
    "file_floor_range": _("must be at least 0 and below 1"),
    "file_tiebreakers_list": _("expected a list of tie-breaker codes"),
    "file_unknown_tiebreaker": _("unknown tie-breaker %(code)s"),
    "file_tiebreaker_twice": _("a tie-breaker is listed twice"),
    "file_one_of": _("one of %(choices)s"),
    "file_unknown_time_zone": _("unknown time zone %(zone)s; a name such as Asia/Tokyo or Europe/Copenhagen"),
    "file_expected_one_of": _("expected one of %(choices)s"),
    "file_bad_date": _("%(date)s is not a date like 2026-11-21"),
    "file_bad_slug": _("letters, digits, - and _ only, at most 80"),
    "file_missing": _("missing"),
    "file_change_empty": _("a change has a line in was or in became"),
    "file_change_time": _("%(value)s is not a time like 2026-12-07T14:32:05+00:00"),
    "file_change_b": _("b and b_name are given together, or neither"),
    "file_duplicate_player": _("duplicate player id %(player)s"),
    "file_drop_before_join": _("a player cannot drop before joining"),
    "file_too_many_byes": _("at most 3 pre-awarded byes"),
    "file_player_number_twice": _("player number %(number)s is given twice"),
    # a version-2 file's sections (swiss.venuefile)
    "file_no_sections": _("a version-2 file has at least one section"),
    "file_too_many_sections": _("%(count)s sections; an event holds at most %(limit)s"),
    "file_too_many_results": _("%(count)s results; an event holds at most %(limit)s"),
    "file_section_twice": _("a section called %(name)s is given twice"),
    "file_no_such_section": _("no other section is called %(name)s"),
    # two sections paired together (swiss.sectionfacts.pair_with_problem: the settings form and the file reader)
    "pair_with_chain": _("a section pairs with one section that pairs with none itself: no chains, no circles"),
    "pair_with_scoring": _("“%(section)s” has another preset or scoring: sections paired together score alike"),
    "pair_with_below_missing": _("give the number of players below which the two sections pair together"),
    "file_pair_with_alone": _("names another section: only a file with sections (version 2) has one"),
    "file_below_minimum": _("must not be below %(key)s"),
    "file_round_twice": _("round %(round)s appears twice"),
    "file_round_kind": _('expected "swiss" or "elimination"'),
    "file_plays_twice": _("player %(player)s plays twice in round %(round)s"),
    "file_table_twice": _("table %(table)s is used twice in round %(round)s"),
    "file_unknown_player": _("unknown player %(player)s"),
    "file_forbidden_pair": _("expected two player ids"),
    "file_forbidden_pair_twice": _("two different players, each pair once"),
    "file_forbidden_rounds": _("expected two player ids, then the first and last round"),
    "file_plays_self": _("a player cannot play themselves"),
    "file_loss_has_b": _('"loss" is an unpaired loss: it has no player b'),
    "file_double_loss_needs_b": _('"double_loss" needs two players'),
    "file_bye_has_b": _("a bye has no player b"),
    "file_result_kind": _('expected "loss" or "double_loss"'),
    "file_elimination_needs_b": _("an elimination match needs two players"),
    "file_no_games": _("a %(result)s has no game counts"),
    "file_games_shape": _("expected [games won by a, games won by b, games drawn]"),
    "file_text_too_long": _("longer than %(limit)s characters"),
    "file_slug_taken": _("an event with the slug %(slug)s exists already"),
    "file_string_too_long": _("at most %(limit)s characters (this one has %(length)s)"),
    "file_nul": _("contains a NUL character"),
    "file_lone_surrogate": _("contains %(escape)s, half of a character (a lone surrogate): no text holds it"),
    "file_key_twice": _("given twice in one object (a key is given once)"),
    "file_fide_id": _("a FIDE ID is up to 11 digits"),
    "file_federation": _("a federation is a three-letter FIDE code such as GER"),
    "file_title": _("a title is one of %(choices)s"),
    "file_sex": _("sex is m or w (f is read as w)"),
    "file_birth_date": _("a birth date is written 1969/12/06 or 1969"),
    "file_birth_date_impossible": _("there is no date %(date)s"),
    "file_name_parts": _("family_name and given_name are given together, or neither"),
    "file_white_unplayed": _("only a forfeit or a double loss between two players names white"),
    "file_white_player": _("white is player a or player b"),
    "file_top_cut": _("0 (none) or a power of two: 2, 4, 8, 16…"),
    "file_prize_value": _("give an amount (money) or a number of items, one of the two"),
    "file_prize_amount": _('expected an amount as a decimal string such as "40" or "12.50"'),
    "file_prize_category": _("name at least one condition"),
    "file_prize_record": _('expected a record such as "4-1" or "3-0-2"'),
    "file_trf_header": _("expected a list of TRF header lines (strings)"),
    "file_acceleration": _("virtual points in tenths, at most %(limit)s"),
    "file_draft_results": _("a draft round has no results: publish it first"),
    "file_unpaired_has_b": _('a "%(result)s" has no player b'),
    "file_too_many_players": _("%(count)s players; an event holds at most %(limit)s"),
    "file_json_too_many_digits": _("not valid JSON (a number has more than %(limit)s digits)"),
    # what the JSON decoder found wrong (inside file_not_json)
    "json_expecting_value": _("a value was expected"),
    "json_extra_data": _("more text after the end of the document"),
    "json_property_name": _("a key in double quotes was expected"),
    "json_colon": _("a colon (:) was expected"),
    "json_comma": _("a comma (,) was expected"),
    "json_unterminated_string": _("a string is not closed"),
    "json_control_character": _("a control character inside a string"),
    "json_bad_escape": _("an invalid backslash escape"),
    "json_trailing_comma": _("a comma before the closing bracket"),
    "json_too_deep": _("lists and objects nested too deeply"),
    # results named in a file refusal ("a forfeit has no game counts")
    "result_bye": pgettext_lazy("file result", "bye"),
    "result_loss": pgettext_lazy("file result", "loss"),
    "result_double_loss": pgettext_lazy("file result", "double loss"),
    "result_half_bye": pgettext_lazy("file result", "half bye"),
    "result_zero_bye": pgettext_lazy("file result", "zero bye"),
    "result_full_bye": pgettext_lazy("file result", "full bye"),
    "result_forfeit": pgettext_lazy("file result", "forfeit"),
    **TRF_TEXTS,
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


def _why_not(code: str, shown: dict[str, Any], raw: Mapping[str, Any]) -> str | None:
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
        text = _counted(code, shown, raw) or _why_not(code, shown, raw)
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
