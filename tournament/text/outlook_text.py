"""The outlook's sentences ("what do I need", standings/outlook.py) in the reader's language: its refusals,
the words for a player's results, and each claim. `engine_text` translates them with the engines' other
messages, by code."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

OUTLOOK_TEXTS = {
    "outlook_swiss_over": _("the Swiss rounds are over: the top cut has started"),
    "outlook_not_paired": _("no round is paired yet: there is nothing to look ahead to"),
    "outlook_round_not_paired": _("round %(round)s is not paired yet"),
    "outlook_round_finished": _("round %(round)s is finished: every result is in, so the standings say it all"),
    "outlook_bad_places": _("the line must be at least 1 place"),
    "outlook_bad_points": _("the points line cannot be negative"),
    "outlook_word_win": pgettext_lazy("outlook", "Win"),
    "outlook_word_draw": pgettext_lazy("outlook", "Draw"),
    "outlook_word_loss": pgettext_lazy("outlook", "Lose"),
    "outlook_word_win_draw": pgettext_lazy("outlook", "Win or draw"),
    "outlook_word_draw_loss": pgettext_lazy("outlook", "Draw or lose"),
    "outlook_word_win_loss": pgettext_lazy("outlook", "Win or lose"),
    "outlook_word_any": pgettext_lazy("outlook", "Whatever your result"),
    "outlook_word_result": pgettext_lazy("outlook", "With your result"),
    "outlook_in_top": _("%(outcome)s: you are in the top %(places)s."),
    "outlook_out_top": _("%(outcome)s: you cannot reach the top %(places)s."),
    "outlook_in_points": _("%(outcome)s: you reach %(points)s points."),
    "outlook_out_points": _("%(outcome)s: you stay below %(points)s points."),
    "outlook_depends_tables": _("%(outcome)s: it depends on tables %(tables)s."),
    "outlook_depends_catching": _(
        "%(outcome)s: it depends on other results; players who can still catch you play at tables %(tables)s."
    ),
    "outlook_depends_tie": _(
        "%(outcome)s: it depends on the tie-breakers; you may finish level with players at the line."
    ),
}
