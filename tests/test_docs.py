"""The documents stay honest: a README that welcomes (short), links that lead somewhere, and nothing that
points outside the repository (a spec, an issue tracker, a sibling folder) a reader of it cannot open."""

import re
from pathlib import Path

import pytest

# The repository's root, wherever this file ends up under tests/.
ROOT = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").exists())
DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
README_MAX_LINES = 300

FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
CODE_SPAN = re.compile(r"`[^`\n]*`")
INLINE_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_LINK = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$", re.M)
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.M)
OUTSIDE = {
    "a sibling folder": re.compile(r"\.\./shared"),
    "a spec": re.compile(r"\bSP[E]C\b|\u00a7"),
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
        "`[not a link](nowhere.md)` and the rule of " + "issue " + "24 and " + "SP" + "EC \u00a74 in ../shared.\n\n"
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


# ---------------------------------------------------------------- citations a reader cannot open, paths that moved
# Code, tests and docs state the fact itself, or link the page of docs/ that states it: never a section of a spec
# or an issue's number (written with character classes here so that this file does not cite one itself).
CITATION = re.compile(r"\bSP[E]C\b|\u00a7|\b(?i:iss[u]es?\s*#?\d+|ite[m]s?\s+\d+|see[d]s?\s+0\d\d\b)")
SOURCE_SUFFIXES = {".py", ".md", ".html", ".js", ".sh", ".toml", ".txt", ".cfg"}
NOT_OURS = {".venv", ".git", "node_modules", "staticfiles", "artifacts", "out", "__pycache__"}
# Paths named in README.md and docs/*.md: anything under a top-level folder of the repository.
TOP_FOLDERS = (
    "tournament",
    "swiss",
    "pairing",
    "standings",
    "tests",
    "bench",
    "deploy",
    "docs",
    "templates",
    "static",
    "locale",
    ".ci",
)
TOP = "|".join(re.escape(f) for f in TOP_FOLDERS)
NAMED_PATH = re.compile(rf"(?<![\w./-])((?:{TOP})/[\w.*/<>-]*)")
MADE_BY_A_RUN = ("tests/artifacts/",)  # the browser tests' screenshots: ignored by git, made by the suite


def our_files() -> list[Path]:
    return sorted(
        path
        for path in ROOT.rglob("*")
        if path.suffix in SOURCE_SUFFIXES
        and path.is_file()
        and not NOT_OURS.intersection(path.relative_to(ROOT).parts[:-1])
        and not path.relative_to(ROOT).parts[0].startswith(".")
        or path.relative_to(ROOT).parts[0] == ".ci"
        and path.is_file()
    )


def citations(text: str) -> list[str]:
    return [m.group(0) for m in CITATION.finditer(text)]


def test_no_code_test_or_document_cites_a_spec_section_or_an_issue():
    files = our_files()
    assert ROOT / "swiss" / "model.py" in files and ROOT / "tests" / "test_docs.py" in files
    found = [
        f"{path.relative_to(ROOT)}:{n}: {hit!r}"
        for path in files
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        for hit in citations(line)
    ]
    assert found == [], "say the fact itself, or link the page of docs/ that states it:\n" + "\n".join(found)


def path_exists(named: str) -> bool:
    """A path a document names exists: a file or folder, a glob that matches, or `pkg/module.name` (a name in a
    module)."""
    named = named.rstrip(".,")
    if named.startswith(MADE_BY_A_RUN):
        return True
    if "*" in named:
        return any(ROOT.glob(named))
    if (ROOT / named).exists():
        return True
    module, dot, attribute = named.rpartition(".")
    source = ROOT / f"{module}.py"
    return bool(dot) and source.is_file() and re.search(rf"\b{re.escape(attribute)}\b", source.read_text()) is not None


def named_paths(text: str) -> list[str]:
    return [m.group(1) for m in NAMED_PATH.finditer(text) if "<" not in m.group(0)]


@pytest.mark.parametrize("doc", DOCS, ids=name)
def test_every_path_a_document_names_exists(doc):
    missing = sorted({p for p in named_paths(doc.read_text(encoding="utf-8")) if not path_exists(p)})
    assert missing == [], f"{name(doc)} names paths that are not in the repository: {missing}"


def test_the_citation_and_path_checks_catch_what_they_look_for():
    cited = "as SP" + "EC \u00a73 says; see issue" + " #12, Issue" + " 4 and item" + " 7, as in se" + "ed 003"
    assert len(citations(cited)) == 6
    assert citations("a tissue of 3 cm, the spec, items of 4, --seed 3, seed002-hyogo.json") == []
    text = "`tournament/postgresql/` and tournament/infra/fast/postgresql/base.py, `swiss/model.Event`, bench/<x>.py"
    assert named_paths(text) == [
        "tournament/postgresql/",
        "tournament/infra/fast/postgresql/base.py",
        "swiss/model.Event",
    ]
    assert [path_exists(p) for p in named_paths(text)] == [False, True, True]
    assert not path_exists("swiss/model.NoSuchName")
