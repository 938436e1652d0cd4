"""A TRF file's refusals in the reader's language: what is wrong with a line of an imported file (the line comes
before them) and why an event cannot be exported as one. `engine_text` translates them with the engines' other
messages, by code."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

TRF_TEXTS = {
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
    "trf_299": _(
        "299 (abnormal points: a penalty, a bonus or a result the arbiter set) is not read here; "
        "enter those points as results, or remove the line"
    ),
    # TRF export refusals
    "trf_too_many_players": _("a TRF file holds at most 9999 players"),
    "trf_points_too_high": _("a TRF file's points column holds at most 99.9 points (%(name)s has %(points)s)"),
}
