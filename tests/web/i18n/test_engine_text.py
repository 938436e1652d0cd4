"""The engines' warnings and refusals carry a code and parameters, and read in the organiser's language
(docs/languages.md): the engines stay pure and English for the command line; tournament/text/engine_text.py translates."""

import ast
import json
import pickle
import re
import sys
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation import trans_real

from pairing import PairingError, pair
from pairing.topcut import top_cut_pairings
from standings import points_by_player
from swiss.messages import Message, message_of
from tests.engines.test_pairing import history_input, round_robin
from tournament.text import engine_text

ROOT = Path(__file__).resolve().parents[3]


def in_language(language, fn, *args):
    with translation.override(language):
        return fn(*args)


def test_every_code_the_engines_and_services_use_is_translated():
    used = set()
    sources = [*ROOT.glob("pairing/**/*.py"), *ROOT.glob("standings/*.py"), *ROOT.glob("swiss/*.py")]
    for path in [*sources, *ROOT.glob("tournament/services/*.py"), ROOT / "tournament/snapshot.py"]:
        used |= set(re.findall(r'Message\(\s*"(\w+)"', path.read_text()))
    assert len(used) >= 60
    assert used - engine_text.KNOWN_CODES == set()


def test_a_forced_rematch_warning_in_three_languages():
    result = pair(history_input(4, round_robin(4), 1))
    warning = result.warnings[0]
    assert isinstance(warning, Message) and warning.code == "rematch"
    assert warning.params["reason"].code == "reason_played_everyone"
    # The command line keeps the engine's English sentence.
    assert str(warning).startswith("Rematch at table 1: ")
    assert in_language("en", engine_text.translate, warning) == str(warning)
    ja = in_language("ja", engine_text.translate, warning)
    da = in_language("da", engine_text.translate, warning)
    a, b = warning.params["a"], warning.params["b"]
    assert (
        ja.startswith(f"1卓で再戦：{a}と{b}は対戦済みです（") and "このラウンドの他の全プレイヤーと対戦済みです" in ja
    )
    assert da.startswith(f"Omkamp ved bord 1: {a} og {b} har allerede spillet mod hinanden (")
    assert "har allerede spillet mod alle andre spillere i denne runde" in da


def test_stored_warnings_translate_like_fresh_ones_and_old_strings_stay():
    result = pair(history_input(3, [[(0, None), (1, 2)], [(1, None), (0, 2)], [(2, None), (0, 1)]], 0))
    stored = json.loads(json.dumps([w.as_dict() for w in result.warnings]))
    for language in ("en", "ja", "da"):
        fresh = in_language(language, engine_text.translate_all, result.warnings)
        assert in_language(language, engine_text.translate_all, stored) == fresh
    bye = next(w for w in stored if w["code"] == "second_bye")
    assert "不戦勝を1回受けていますが、再び不戦勝になります" in in_language("ja", engine_text.translate, bye)
    assert "får BYE igen efter allerede at have haft 1 BYE (" in in_language("da", engine_text.translate, bye)
    assert in_language("ja", engine_text.translate, "Swapped A and B by hand.") == "Swapped A and B by hand."


def test_an_unknown_code_or_unfitting_parameters_fall_back_to_the_english_sentence():
    assert in_language("da", engine_text.translate, Message("from_a_newer_engine", "Something new {x}", x=1)) == (
        "Something new 1"
    )
    broken = {"code": "rematch", "params": {"table": 1}, "text": "Rematch at table 1."}
    assert in_language("ja", engine_text.translate, broken) == "Rematch at table 1."


def test_refusals_become_sentences_in_the_language():
    with pytest.raises(PairingError) as caught:
        top_cut_pairings(["a", "b", "c"], 4)
    message = message_of(caught.value)
    assert message.code == "top_cut_too_few" and message.params == {"count": 3, "size": 4}
    assert str(caught.value) == "only 3 players are left: too few for a top 4"
    assert in_language("en", engine_text.sentence, message) == "Only 3 players are left: too few for a top 4."
    assert in_language("ja", engine_text.sentence, message) == "残りは3人で、トップ4には足りません。"
    assert in_language("da", engine_text.sentence, message) == "Kun 3 spillere er tilbage: for få til top 4."


def test_outstanding_results_name_the_tables_in_the_language():
    pairs = [[3, "Aiko", "Bo"], [None, "Chie", "Dan"]]
    message = Message(
        "results_outstanding",
        "round {round} still has {count} result{s} outstanding ({tables}{more}); enter them before pairing round {next}",
        round=2,
        count=7,
        s="s",
        tables="table 3: Aiko v Bo, Chie v Dan",
        more=" and 5 more",
        pairs=pairs,
        next=3,
    )
    assert in_language("en", engine_text.translate, message) == str(message)
    assert in_language("da", engine_text.translate, message) == (
        "runde 2 mangler stadig 7 resultater (bord 3: Aiko mod Bo, Chie mod Dan og 5 mere); indtast dem før runde 3 parres"
    )
    assert in_language("ja", engine_text.translate, message) == (
        "ラウンド2の結果が7件未入力です（3卓：Aiko 対 Bo、Chie 対 Danほか5件）。ラウンド3を組む前に入力してください"
    )


def test_a_message_survives_the_cache():
    warning = pair(history_input(4, round_robin(4), 1)).warnings[0]
    copy = pickle.loads(pickle.dumps(warning))  # noqa: S301 (our own bytes, as the cache stores them)
    assert copy == warning and copy.code == warning.code and copy.params["reason"].code == "reason_played_everyone"


def test_file_refusals_name_the_place_and_translate_the_problem():
    from swiss import eventfile as ef

    doc = {"format": "swiss-event", "version": 1, "players": [{"id": "a", "name": "A", "byes": 5}]}
    with pytest.raises(ef.EventFileError) as caught:
        ef.parse(doc)
    assert str(caught.value) == "players[0].byes: at most 3 pre-awarded byes"  # the command line
    assert in_language("ja", engine_text.file_error, caught.value) == "players[0].byes: 事前付与の不戦勝は3回までです"
    assert in_language("da", engine_text.file_error, caught.value) == "players[0].byes: højst 3 tildelte BYE'er"


def test_an_impossible_game_count_in_a_file_is_refused_in_the_language():
    from swiss import eventfile as ef

    doc = {
        "format": "swiss-event",
        "version": 1,
        "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
        "rounds": [{"number": 1, "matches": [{"a": "a", "b": "b", "games": [3, 0, 0]}]}],
    }
    with pytest.raises(ef.EventFileError) as caught:
        ef.parse(doc)
    assert str(caught.value) == "rounds[0].matches[0].games: in best of 3 nobody wins more than 2 games"
    assert in_language("ja", engine_text.file_error, caught.value) == (
        "rounds[0].matches[0].games: 3ゲームマッチでは、2ゲームより多く勝つことはできません"
    )
    assert in_language("da", engine_text.file_error, caught.value) == (
        "rounds[0].matches[0].games: i bedst af 3 kan ingen vinde mere end 2 spil"
    )


# ---------------------------------------------------------------- every refusal of the file readers has a code

REFUSING_MODULES = (
    "swiss/strictjson.py",
    "swiss/chessfacts.py",
    "swiss/eventfile.py",
    "swiss/eventrounds.py",
    "swiss/trflines.py",
    "swiss/trfheader.py",
    "swiss/trfpairing.py",
    "swiss/trf.py",
    "tournament/snapshot.py",
)


def refusal_codes() -> set[str]:
    """Every code an EventFileError or TRFError of the file readers can carry, read from their source.

    Each refusal must be built with a Message whose code is written out (or a helper of the same module
    that returns one); anything else — a plain or formatted string — fails here, naming its line.
    """
    from swiss import eventrounds, strictjson
    from swiss.model import GAMES_PROBLEMS

    codes: set[str] = set()
    trees = {name: ast.parse((ROOT / name).read_text()) for name in REFUSING_MODULES}
    # The helpers that build a refusal's Message, in any of these modules (one may use another's).
    helpers = {
        f.name: {
            c.args[0].value
            for c in ast.walk(f)
            if isinstance(c, ast.Call)
            and getattr(c.func, "id", "") == "Message"
            and isinstance(c.args[0], ast.Constant)
        }
        for tree in trees.values()
        for f in ast.walk(tree)
        if isinstance(f, ast.FunctionDef)
    }
    for name, tree in trees.items():
        # A refusal may name a message a helper gave just before (`if problem := detail_problem(...)`).
        named = {
            n.target.id: n.value
            for n in ast.walk(tree)
            if isinstance(n, ast.NamedExpr) and isinstance(n.value, ast.Call) and isinstance(n.target, ast.Name)
        }
        for call in ast.walk(tree):
            func = getattr(call, "func", None)
            if not isinstance(call, ast.Call) or (getattr(func, "id", None) or getattr(func, "attr", None)) not in (
                "EventFileError",
                "TRFError",
            ):
                continue
            message = call.args[-1]
            if isinstance(message, ast.Name) and message.id in named:
                message = named[message.id]
            where = f"{name}:{call.lineno}"
            assert isinstance(message, ast.Call), f"{where}: a refusal without a code"
            callee = getattr(message.func, "id", None)
            if callee == "Message" and isinstance(message.args[0], ast.Constant):
                codes.add(message.args[0].value)
            elif callee == "Message" and ast.unparse(message.args[0]) == "f'games_{code}'":
                codes |= {f"games_{code}" for code in GAMES_PROBLEMS}
            else:
                assert helpers.get(callee), f"{where}: a refusal without a code"
                codes |= helpers[callee]
    # Messages inside messages: the result a refusal names, what the JSON decoder found wrong.
    codes |= (
        {m.code for m in eventrounds.RESULT_NAMES.values()} | set(strictjson.JSON_PROBLEMS.values()) | {"json_too_deep"}
    )
    return codes


def catalog_has(language: str, english: str) -> bool:
    catalog = trans_real.translation(language)._catalog
    return any(
        (key == english or (isinstance(key, str) and key.endswith("\x04" + english))) and value
        for key, value in catalog.items()
    )


def test_every_refusal_of_the_file_readers_has_a_code_translated_into_japanese_and_danish():
    codes = refusal_codes()
    assert len(codes) >= 70 and {"file_string_too_long", "file_not_json", "trf_points_disagree"} <= codes
    assert codes - engine_text.KNOWN_CODES == set()
    for code in sorted(codes - engine_text.ALREADY_TRANSLATED):
        with translation.override("en"):
            english = str(engine_text.TEXTS[code])
        for language in ("ja", "da"):
            assert catalog_has(language, english), f"{code}: no {language} translation of {english!r}"


def test_a_refusal_without_a_code_would_fail_that_test(tmp_path, monkeypatch):
    source = (ROOT / "swiss/strictjson.py").read_text()
    broken = source.replace('Message("file_nul", "contains a NUL character")', '"contains a NUL character"')
    assert broken != source
    (tmp_path / "swiss").mkdir()
    (tmp_path / "swiss/strictjson.py").write_text(broken)
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "REFUSING_MODULES", ("swiss/strictjson.py",))
    with pytest.raises(AssertionError, match=r"swiss/strictjson.py:\d+: a refusal without a code"):
        refusal_codes()


@pytest.mark.parametrize(
    ("text", "english", "ja", "da"),
    [
        (
            json.dumps({"format": "swiss-event", "version": 1, "name": "x" * 201}),
            "name: at most 200 characters (this one has 201)",
            "name: 200文字以内である必要があります（この値は201文字です）",
            "name: højst 200 tegn (denne har 201)",
        ),
        (
            '{"format": "swiss-event",\n "version": }',
            "not valid JSON (line 2, column 13: Expecting value)",
            "有効なJSONではありません（2行13列：値が必要です）",
            "ugyldig JSON (linje 2, kolonne 13: forventede en værdi)",
        ),
        (
            json.dumps({"format": "swiss-event", "version": 1, "players": [{"id": "a", "name": "A\u0000"}]}),
            "players[0].name: contains a NUL character",
            "players[0].name: NUL文字が含まれています",
            "players[0].name: indeholder et NUL-tegn",
        ),
    ],
)
def test_the_length_and_json_checks_refuse_in_the_language(text, english, ja, da):
    from swiss import eventfile as ef

    with pytest.raises(ef.EventFileError) as caught:
        ef.loads(text)
    assert str(caught.value) == english  # the command line keeps the English sentence
    assert in_language("ja", engine_text.file_error, caught.value) == ja
    assert in_language("da", engine_text.file_error, caught.value) == da


def test_a_trf_refusal_translates_with_its_line():
    from swiss import trf

    with pytest.raises(trf.TRFError) as caught:
        trf.loads("012 Only a header\n", points_by_player)
    assert (caught.value.code, caught.value.params) == ("trf_no_players", {"line": 1})
    assert (
        in_language("ja", engine_text.translate, caught.value.message) == "ファイルにプレイヤーの行（001）がありません"
    )
    assert in_language("da", engine_text.translate, caught.value.message) == "filen har ingen spillerlinjer (001)"
