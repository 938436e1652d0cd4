"""Words that would reach a page untranslated, found in the sources: a template's visible text,
spoken attribute or sentence punctuation outside a translation tag, a `choices` label not marked for translation, an action the
audit log records with no sentence for "Recent actions"."""

import ast
import re
from pathlib import Path

import pytest
from django.utils import translation

from tournament.models import EventLog
from tournament.text import wording

ROOT = Path(__file__).resolve().parents[3]
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))
SOURCES = sorted(p for p in (ROOT / "tournament").rglob("*.py") if "migrations" not in p.parts)

# Written as they are in every language: the app's name, and the sides of a match (A and B, as every
# catalog writes them: "Aの勝ちゲーム数", "Spil vundet af A").
AS_THEY_ARE = {"Swiss", "A", "B"}
TRANSLATION_BLOCK = re.compile(r"(?s)\{%\s*blocktranslate\b.*?%\}.*?\{%\s*endblocktranslate\s*%\}")
TAG = re.compile(r"(?s)\{%.*?%\}|\{\{.*?\}\}|\{#.*?#\}")
SPOKEN = re.compile(r'\b(aria-label|title|placeholder|alt)="([^"]*)"')
WORDS = re.compile(r"[A-Za-z]+")
# A sentence's punctuation glued around translated parts: Japanese writes 、 and 。 (and "1位", not "1.").
GLUE = re.compile(r"[,.;:]")


def untranslated(source: str) -> list[str]:
    """The words of a template a person reads or hears that no translation tag carries."""
    text = re.sub(r"(?s)\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}", " ", source)
    text = TRANSLATION_BLOCK.sub(" ", text)
    text = re.sub(r"\{%\s*block body_class\s*%\}[^{]*", " ", text)  # a class name, not text
    text = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", text)
    text = re.sub(r"&#?\w+;", " ", TAG.sub(" ", text))
    found = []
    for _attribute, value in SPOKEN.findall(text):
        found += WORDS.findall(value)
    text = re.sub(r"(?s)<[^>]*>", " ", text)
    found += WORDS.findall(text) + GLUE.findall(text)
    return [w for w in found if w not in AS_THEY_ARE]


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT / "templates")))
def test_a_templates_text_is_all_inside_translation_tags(path):
    assert untranslated(path.read_text(encoding="utf-8")) == []


def test_the_template_check_catches_text_and_spoken_attributes():
    assert untranslated("<h1>New event</h1> <b>{{ a }} v {{ b }}</b>") == ["New", "event", "v"]
    assert untranslated('<button aria-label="{{ a }} v {{ b }}: {{ label }}">{{ x }}</button>') == ["v"]
    assert untranslated('<button aria-label="Close the menu">×</button>') == ["Close", "the", "menu"]
    assert untranslated('<abbr title="{% translate "wins" %}">W-L-D</abbr>') == ["W", "L", "D"]
    assert untranslated('{% translate "3 players" %}, {% translate "2 rounds" %}.') == [",", "."]
    assert untranslated("<li>{{ place }}.</li>&nbsp;") == ["."]
    assert untranslated('{% blocktranslate %}Round {{ n }}{% endblocktranslate %} <i>{% translate "x" %}</i>') == []


def unmarked_choices(tree: ast.AST) -> list[str]:
    """Labels of TextChoices members and of `choices=[(value, "label")]` written as plain strings."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(
            getattr(b, "attr", getattr(b, "id", "")).endswith("Choices") for b in node.bases
        ):
            for statement in node.body:
                value = getattr(statement, "value", None)
                if isinstance(statement, ast.Assign) and isinstance(value, ast.Tuple) and len(value.elts) == 2:
                    label = value.elts[1]
                    if isinstance(label, ast.Constant) and isinstance(label.value, str):
                        found.append(label.value)
        if isinstance(node, ast.keyword) and node.arg == "choices" and isinstance(node.value, ast.List):
            for item in node.value.elts:
                if isinstance(item, ast.Tuple) and len(item.elts) == 2:
                    label = item.elts[1]
                    if isinstance(label, ast.Constant) and isinstance(label.value, str) and WORDS.search(label.value):
                        found.append(label.value)
    return found


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_choices_labels_are_marked_for_translation(path):
    assert unmarked_choices(ast.parse(path.read_text(encoding="utf-8"))) == []


def test_the_choices_check_catches_a_plain_label():
    source = 'class Result(models.TextChoices):\n    BYE = "bye", "Bye"\n    WIN = "win", _("Win")\nf(choices=[("a", "Apple")])'
    assert unmarked_choices(ast.parse(source)) == ["Bye", "Apple"]


def logged_actions() -> set[str]:
    """Every action name the app passes to `log(event, "action", …)`."""
    actions = set()
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "attr", getattr(node.func, "id", None)) == "log"
                and len(node.args) >= 2
            ):
                action = node.args[1]
                if isinstance(action, ast.Constant):
                    actions.add(action.value)
                elif isinstance(action, ast.IfExp):
                    actions |= {action.body.value, action.orelse.value}
                else:
                    pytest.fail(f"{path}:{node.lineno}: log a written-out action name")
    return actions


def test_every_logged_action_has_a_sentence_in_every_language():
    actions = logged_actions()
    assert {"pair", "publish", "dispute", "reissue_link", "staff_invite", "undo_top_cut"} <= actions
    detail = {"round": 2, "table": 3, "size": 4, "user": "kim", "role": "judge", "mode": "confirm", "fields": []}
    for language in ("en", "ja", "da"):
        with translation.override(language):
            fallback = wording.log_sentence(EventLog(action="zz_unknown", detail={}), str, {})
            for action in sorted(actions):
                sentence = wording.log_sentence(EventLog(action=action, detail=detail), lambda key: "Kim", {})
                assert "zz_unknown" in fallback and not sentence.startswith(fallback.split("zz_unknown")[0])
                assert not re.search(rf"\b{action}\b", sentence), (language, action, sentence)
