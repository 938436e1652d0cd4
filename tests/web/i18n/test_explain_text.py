"""The reasons of pairing.explain read in the organiser's language (docs/explanations.md): every reason and every
note of random rounds of both engines has its own Japanese and Danish sentence (none falls back to English for
parameters that do not fit), fresh or stored as JSON, and a chess event's Danish says oversidder."""

from __future__ import annotations

import json
import re

from django.utils import translation

from pairing.explain import explain
from tests.engines.test_explain_truth import random_dutch_rounds, random_optimal_rounds
from tournament.text import engine_text, game_words


def _every_message(rounds):
    for inp, result, *asked in rounds:  # the Dutch rounds also give the half-point byes asked for
        ex = explain(inp, result, asked=asked[0] if asked else None)
        for messages in ex.players.values():
            yield from messages
        for group in ex.groups:
            yield from group.notes


def test_every_reason_and_note_has_its_own_japanese_and_danish_sentence():
    messages = [*_every_message(random_dutch_rounds(30, seed=11)), *_every_message(random_optimal_rounds(30, seed=12))]
    codes = {m.code for m in messages}
    assert {"score_group", "float_down", "float_up", "bye", "colour", "note_group"} <= codes
    for m in messages:
        stored = json.loads(json.dumps(m.as_dict()))
        with translation.override("en"):
            assert engine_text.translate(m) == str(m)
        for language in ("ja", "da"):
            with translation.override(language):
                fresh = engine_text.translate(m)
                assert engine_text.translate(stored) == fresh
            assert fresh != str(m), f"{language}: {m.code} fell back to English: {m}"
            if language == "ja":
                assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", fresh), fresh


def test_a_chess_event_reads_oversidder_where_a_card_game_reads_bye():
    bye = next(
        m
        for m in _every_message(random_dutch_rounds(10, seed=13))
        if m.code == "bye" and m.params["cause"] != "requested"
    )
    with translation.override("da"):
        cards = engine_text.translate(bye)
        with game_words.playing("chess"):
            chess = engine_text.translate(bye)
    assert cards.startswith("BYE: ") and chess.startswith("Oversidder: ")
