"""A match's result as pages, prints and the history write it: 2-1, ½-½, a bye, −/+ (in the reader's language)."""

from django.utils.translation import gettext, gettext_lazy

from tournament.models import Match
from tournament.text import game_words

# How the app shows the unplayed results FIDE C.07 tells apart (a forfeit: player A won, B did not play).
UNPLAYED_LABELS = {
    "half_bye": game_words.gettext_lazy("½-point bye"),
    "zero_bye": game_words.gettext_lazy("0-point bye"),
    "full_bye": game_words.gettext_lazy("1-point bye"),
    "forfeit": gettext_lazy("won by forfeit"),
}


# Match.Result's labels that a chess player says otherwise (a Danish oversidder, not BYE): the model keeps the
# plain ones for the forms and the admin, pages read them here (`result_word`).
RESULT_WORDS = {
    "bye": game_words.gettext_lazy("Bye"),
    "half_bye": game_words.gettext_lazy("Half-point bye"),
    "zero_bye": game_words.gettext_lazy("Zero-point bye"),
    "full_bye": game_words.gettext_lazy("Full-point bye"),
}


def result_word(code: str) -> str:
    """A kind of result (`Match.Result`) as the page's game says it: "Bye", "Half-point bye", "Double loss"."""
    if code in RESULT_WORDS:
        return str(RESULT_WORDS[code])
    return str(Match.Result(code).label) if code in Match.Result.values else code


# One game's results as chess writes them, White's first.
CHESS_RESULTS = {(1, 0, 0): "1-0", (0, 0, 1): "½-½", (0, 1, 0): "0-1"}


def result_label(match, chess: bool = False) -> str:
    """The result as pages show it; `chess`: one game written 1-0, ½-½, 0-1 and a double loss −/−."""
    if chess and match.result == Match.Result.DOUBLE_LOSS:
        return gettext("double forfeit −/−")
    if chess and match.games in CHESS_RESULTS:
        return CHESS_RESULTS[match.games]
    if match.result == Match.Result.BYE:
        return game_words.gettext("bye")
    if match.result == Match.Result.LOSS:
        return gettext("unpaired loss")
    if match.result == Match.Result.DOUBLE_LOSS:
        return gettext("double loss")
    if match.result == Match.Result.FORFEIT:
        # As chess writes it, White's side first: +/− White won by forfeit, −/+ Black did.
        return "−/+" if match.black_won_by_forfeit else "+/−"
    if match.result in UNPLAYED_LABELS:
        return str(UNPLAYED_LABELS[match.result])
    if match.games_a is None:
        return ""
    text = f"{match.games_a}-{match.games_b}"
    return f"{text}-{match.games_drawn}" if match.games_drawn else text
