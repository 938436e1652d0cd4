"""The refusals of a file read in, in the reader's language: a swiss-event file's (the place in the file comes before
them), a FIDE TRF file's (the line comes before them) and a TRF export's. `engine_text` translates them with the
engines' other messages, by code."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

FILE_TEXTS = {
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
    "file_joined_alone": _("only a section that pairs with another (pair_with) joins it"),
    # the event's rules and a game's adjournment (swiss.eventrules, swiss.eventrounds)
    "file_fide_left": _("FIDE mode, once left (fide_left), is left for good: it cannot be true"),
    "file_adjourned_unplayed": _("only a game between two players is adjourned"),
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
    # TRF-16 refusals (the line comes before them)
    "trf_line_code": _("a TRF line starts with a three-character code and a space"),
    "trf_duplicate_rank": _("start rank %(rank)s is also on line %(other_line)s"),
    "trf_no_players": _("the file has no player lines (001)"),
    "trf_unknown_opponent": _("round %(round)s: no player has start rank %(opponent)s"),
    "trf_opponent_disagrees": _(
        "round %(round)s: the opponent %(opponent)s (line %(other_line)s) does not list %(rank)s as opponent"
    ),
    "trf_rounds": _("XXR needs a number of rounds"),
    "trf_short_line": _("a player line needs the columns up to the points (84)"),
    "trf_start_rank": _("columns 5-8: %(value)s is not a start rank"),
    "trf_name": _("columns 15-47: the name is empty"),
    "trf_rating": _("columns 49-52: %(value)s is not a rating"),
    "trf_points": _("columns 81-84: %(value)s is not a number of points"),
    "trf_round_columns": _("round %(round)s: not in the round columns (opponent, colour, result)"),
    "trf_colour": _("round %(round)s: unknown colour %(colour)s (w, b or -)"),
    "trf_result": _("round %(round)s: unknown result code %(result)s"),
    "trf_opponent": _("round %(round)s: %(value)s is not a start rank"),
    "trf_self": _("round %(round)s: a player cannot play themselves"),
    "trf_no_opponent": _("round %(round)s: result %(result)s needs an opponent"),
    "trf_bye_opponent": _("round %(round)s: result %(result)s cannot have an opponent"),
    "trf_result_disagrees": _("round %(round)s: result %(result)s against %(other)s on line %(other_line)s"),
    "trf_colour_disagrees": _("round %(round)s: colour %(colour)s against %(other)s on line %(other_line)s"),
    "trf_points_disagree": _("columns 81-84 say %(given)s points but the results give %(computed)s"),
    "trf_too_large": _(
        "the file has %(size)s bytes; a TRF file of at most %(limit)s bytes is read "
        "(the largest real events, 2,000 players and 13 rounds, take about 450,000)"
    ),
    "trf_nul": _("column %(column)s: a NUL character"),
    "trf_digit": _("column %(column)s: %(char)s is not one of the digits 0-9"),
    "trf_too_many_rounds": _(
        "%(rounds)s rounds for %(players)s players: at most %(limit)s (twice the players, or %(match)s)"
    ),
    "trf_too_big": _(
        "%(players)s players and %(rounds)s rounds: a TRF file of at most %(limit)s player-rounds is read "
        "(the largest real events have about 26,000)"
    ),
    "trf_detail": _("columns %(columns)s: %(problem)s"),
    "trf_initial_colour": _("152 needs W or B (the initial colour)"),
    "trf_scoring": _("a win must score more than a loss, and a draw between the two"),
    "trf_score": _("%(value)s is not a number of points such as 1.0"),
    "trf_xxs": _("XXS needs CODE=points pairs such as W=1 D=0.5"),
    "trf_162": _("162 needs result codes W, D, L, A, P with their points"),
    "trf_score_differs": _("%(code)s scores %(value)s, but here it scores as a %(result)s: %(points)s"),
    "trf_scores_as_win": pgettext_lazy("TRF scoring", "win"),
    "trf_scores_as_draw": pgettext_lazy("TRF scoring", "draw"),
    "trf_scores_as_loss": pgettext_lazy("TRF scoring", "loss"),
    "trf_240": _("240 needs F, H or Z, a round and start ranks"),
    "trf_240_rank": _("no player has start rank %(rank)s"),
    "trf_xxz": _("XXZ needs the start ranks of the absent players"),
    "trf_240_played": _(
        "240 asks for a bye in round %(round)s, which the player lines show played already (%(played)s rounds); "
        "a 240 line is for a round not yet paired"
    ),
    "trf_xxa": _(
        "XXA needs a start rank in columns 5-8, then a round's points in each 5 columns (1.0, 0.5), "
        "at most %(limit)s each"
    ),
    "trf_250": _(
        "250 needs the points (columns 10-13), the first and last round (15-17, 19-21) and the first and "
        "last start rank (23-26, 28-31)"
    ),
    "trf_260": _(
        "260 needs the first and last round (columns 5-7, 9-11), then the start ranks of two or more players "
        "who must not meet"
    ),
    "trf_xxp": _("XXP needs the start ranks of two or more players who must not meet"),
    "trf_tiebreak_twice": _("the tie-break list names %(code)s twice"),
    "trf_299": _(
        "299 (abnormal points: a penalty, a bonus or a result the arbiter set) is not read here; "
        "enter those points as results, or remove the line"
    ),
    # TRF export refusals
    "trf_too_many_players": _("a TRF file holds at most 9999 players"),
    "trf_points_too_high": _("a TRF file's points column holds at most 99.9 points (%(name)s has %(points)s)"),
}
