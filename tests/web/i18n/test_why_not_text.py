"""The answers of why_not (docs/explanations.md#why-not) read in the organiser's language: every rule a "worse"
answer names is known to tournament/text/engine_text.py, and each kind of sentence translates, the chess words
on a chess event's page."""

from django.utils import translation

from pairing.explain.why_not import RULE_WORDS, why_not
from tests.engines.test_why_not import ROUND_ONE_DONE, card, dutch, entrant
from tournament.text import engine_text, game_words


def say(language: str, message, game: str | None = None) -> str:
    with translation.override(language), game_words.playing(game):
        return engine_text.translate(message)


def test_every_rule_has_its_words_in_every_language():
    assert set(RULE_WORDS) == set(engine_text.WHY_NOT_RULES)
    for rule, english in RULE_WORDS.items():
        assert say(
            "en",
            {
                "code": "worse",
                "params": {"a": "A", "b": "B", "rule": rule, "this_round": 0, "with_pair": 1},
                "text": "",
            },
        ) == (f"pairing A with B makes the round worse by {english} (0 in this round, 1 with the pair)")
        for language in ("ja", "da"):
            with translation.override(language):
                assert str(engine_text.WHY_NOT_RULES[rule]) != english, (language, rule)


def test_a_dutch_answer_in_three_languages():
    inp, result = dutch(ROUND_ONE_DONE)
    answer = why_not(inp, result, "1", "3")
    assert say("en", answer) == str(answer)
    assert say("ja", answer) == (
        "1さんと3さんを組むと、1点のブラケットでラウンドがC.12、希望の色にならないプレイヤーで悪くなります"
        "（このラウンドは0、その組み合わせでは1）"
    )
    assert say("da", answer, "chess") == (
        "at parre 1 med 3 gør runden dårligere efter C.12, spillere uden deres farvepræference i gruppen med 1 point "
        "(0 i denne runde, 1 med parret)"
    )
    clash = {"code": "colour_clash", "params": {"a": "1", "b": "2", "colour": "black"}, "text": ""}
    assert say("da", clash) == "1 og 2 skal begge have Sort (en absolut farvepræference), så de må ikke mødes"
    assert say("ja", clash).startswith("1さんと2さんはどちらも黒でなければならない")


def test_the_bye_in_a_chess_players_words():
    inp, result = card(entrant("p1", byes=1), entrant("p2", byes=1), entrant("p3", 0, 1))
    answer = why_not(inp, result, "p3", "p1")
    assert answer.code == "bye"
    assert say("da", answer).startswith("p3 har rundens BYE: ")
    assert "BYE" in say("da", answer) and "anden BYE" in say("da", answer)
    chess = say("da", answer, "chess")
    assert chess.startswith("p3 er rundens oversidder: ") and "anden oversidder" in chess
    met = why_not(
        *card(
            entrant("p1", 3, opponents=frozenset({"p2"})),
            entrant("p2", 3, opponents=frozenset({"p1"})),
            entrant("p3", 3),
            entrant("p4", 3),
        ),
        "p1",
        "p2",
    )
    assert say("ja", met) == "p1さんとp2さんは対戦済みです（再戦：このラウンドは0、その組み合わせでは1）"
