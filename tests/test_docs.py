"""The documents stay honest: a README that welcomes (short), links that lead somewhere, and nothing that
points outside the repository (a spec, an issue tracker, a sibling folder) a reader of it cannot open."""

import re
from pathlib import Path

import pytest

# The repository's root, wherever this file ends up under tests/.
ROOT = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").exists())
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
README_MAX_LINES = 300

FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
CODE_SPAN = re.compile(r"`[^`\n]*`")
INLINE_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_LINK = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$", re.M)
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.M)
OUTSIDE = {
    "a sibling folder": re.compile(r"\.\./shared"),
    "a spec": re.compile(r"\bSPEC\b"),
    "an issue number": re.compile(r"\bissues?\s*#?\d+", re.I),
}


def name(doc: Path) -> str:
    return str(doc.relative_to(ROOT))


def prose(doc: Path) -> str:
    """The text a reader follows links in: without fenced code blocks and code spans."""
    return CODE_SPAN.sub("", FENCE.sub("", doc.read_text(encoding="utf-8")))


def links(doc: Path) -> list[str]:
    text = prose(doc)
    return INLINE_LINK.findall(text) + REFERENCE_LINK.findall(text)


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, no punctuation, spaces as hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.replace("`", "").replace("*", ""))
    text = text.strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(doc: Path) -> set[str]:
    found: set[str] = set()
    for heading in HEADING.findall(FENCE.sub("", doc.read_text(encoding="utf-8"))):
        base = slug(heading)
        anchor, k = base, 0
        while anchor in found:
            k += 1
            anchor = f"{base}-{k}"
        found.add(anchor)
    return found


def test_there_are_documents_to_check():
    assert (ROOT / "README.md").exists()
    assert len(DOCS) > 3, "docs/ holds the topics the README leaves out"


def test_the_readme_is_short():
    lines = len((ROOT / "README.md").read_text(encoding="utf-8").splitlines())
    assert lines < README_MAX_LINES, f"README.md has {lines} lines: move detail into docs/"


@pytest.mark.parametrize("doc", DOCS, ids=name)
def test_every_relative_link_leads_to_a_file_that_exists(doc):
    broken = []
    for target in links(doc):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        where = (doc.parent / path).resolve() if path else doc
        if not where.exists():
            broken.append(f"{target}: no such file")
        elif anchor and where.suffix == ".md" and anchor not in anchors(where):
            broken.append(f"{target}: no heading makes #{anchor}")
    assert broken == [], f"{name(doc)}: {broken}"


@pytest.mark.parametrize("doc", DOCS, ids=name)
def test_no_document_points_outside_the_repository(doc):
    text = doc.read_text(encoding="utf-8")
    found = [f"{what}: {m.group(0)!r}" for what, pattern in OUTSIDE.items() for m in pattern.finditer(text)]
    assert found == [], f"{name(doc)}: {found}"


def test_the_checks_catch_what_they_look_for(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "# A `code` title\n\nSee [this](missing.md), [that](page.md#a-code-title), [web](https://example.org),\n"
        "`[not a link](nowhere.md)` and the rule of issue 24 and SPEC §4 in ../shared.\n\n"
        "```\n[in a block](nowhere-either.md)\n```\n[ref]: also-missing.md\n",
        encoding="utf-8",
    )
    assert links(page) == ["missing.md", "page.md#a-code-title", "https://example.org", "also-missing.md"]
    assert anchors(page) == {"a-code-title"}
    text = page.read_text(encoding="utf-8")
    assert all(pattern.search(text) for pattern in OUTSIDE.values())
    assert slug("`self_report.py`") == "self_reportpy"
    assert slug("What `make test` needs") == "what-make-test-needs"
    assert slug("Rounds, the clock and the top cut") == "rounds-the-clock-and-the-top-cut"
