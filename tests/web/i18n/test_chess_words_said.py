"""A message that has a chess word (a second translation in the context "chess", `wording.CHESS_WORDS`) is said in
the page's game everywhere it is said: through `text.game_words` in Python, with `context game_words` in a template.
Said with Django's plain `gettext` or `{% translate %}`, a chess event's page would speak of a card game there."""

import ast
import re
from pathlib import Path

from django.utils.translation import trans_real

ROOT = Path(__file__).resolve().parents[3]
PLAIN = {"_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy", "gettext_noop"}


def chess_messages() -> set[str]:
    """Every message the catalogs give a chess word."""
    keys = [k for language in ("da", "ja") for k, _text in trans_real.translation(language)._catalog.items()]
    keys = [k[0] if isinstance(k, tuple) else k for k in keys]
    return {k.split("\x04", 1)[1] for k in keys if k.startswith("chess\x04")}


def plain_calls(source: str, messages: set[str]) -> list[str]:
    """The chess messages `source` says with a plain gettext function (a bare name, not `game_words.gettext`)."""
    return [
        f"{node.lineno}: {node.args[0].value[:60]}"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in PLAIN
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and node.args[0].value in messages
    ]


def plain_tags(template: str, messages: set[str]) -> list[str]:
    """The chess messages a template translates without a context: `{% translate "…" %}`, or a
    `{% blocktranslate %}` whose text (with `%(name)s` for each `{{ name }}`) is one."""
    found = [m for m, rest in re.findall(r'\{% trans(?:late)? "([^"]*)"([^%]*)%\}', template) if "context" not in rest]
    for options, body in re.findall(r"\{% blocktrans(?:late)?((?:(?!%\}).)*)%\}(.*?)\{% endblocktrans", template, re.S):
        if "context" not in options:
            found.append(re.sub(r"\{\{\s*(\w+)\s*\}\}", r"%(\1)s", re.split(r"\{% plural %\}", body)[0]))
    return [m[:60] for m in found if m in messages]


# The modules of the rows whose choices and help texts carry the plain labels (Event's best-of, Player's byes,
# Match's results).
MODELS = {Path(f"tournament/{m}.py") for m in ("models", "records/players", "records/rounds")}


def test_every_chess_message_is_said_in_the_game_of_the_page():
    messages = chess_messages()
    assert {"Bye", "Draw", "Matches", "One game"} <= messages
    found = {}
    for path in sorted((ROOT / "tournament").rglob("*.py")):
        if "migrations" not in path.parts and path.relative_to(ROOT) not in MODELS:  # the models keep the plain labels
            found |= (
                {str(path.relative_to(ROOT)): hits} if (hits := plain_calls(path.read_text("utf-8"), messages)) else {}
            )
    for path in sorted((ROOT / "templates").rglob("*.html")):
        found |= {str(path.relative_to(ROOT)): hits} if (hits := plain_tags(path.read_text("utf-8"), messages)) else {}
    assert found == {}


def test_the_guard_sees_a_plain_call_and_a_plain_tag():
    messages = {"Draw", "Byes"}
    assert plain_calls('from django.utils.translation import gettext\nx = gettext("Draw")\n', messages) == ["2: Draw"]
    assert plain_calls('x = game_words.gettext("Draw")\n', messages) == []
    assert plain_tags('{% load i18n %}<th>{% translate "Byes" %}</th>', messages) == ["Byes"]
    assert plain_tags('{% load i18n %}<th>{% translate "Byes" context game_words %}</th>', messages) == []
    assert plain_tags("{% blocktranslate with n=1 %}Draw{% endblocktranslate %}", messages) == ["Draw"]
    assert plain_tags("{% blocktranslate with n=1 context game_words %}Draw{% endblocktranslate %}", messages) == []
