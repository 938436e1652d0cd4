"""The pure core stays pure: no Django anywhere in swiss/, pairing/ or standings/, swiss/ below both engines, no module
grown into a drawer, and no import circle among our packages (docs/code-map.md)."""

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def parse(source: str) -> ast.Module:
    """ast.parse, again when CPython 3.11 (before 3.11.8) raises "AST constructor recursion depth mismatch": its
    parser's depth count is shared with a compile in another thread (a live server a browser test left running
    in this process), so the count, not the source, is wrong."""
    for _ in range(4):
        try:
            return ast.parse(source)
        except SystemError:
            continue
    return ast.parse(source)


@pytest.mark.parametrize("package", ["swiss", "pairing", "standings"])
def test_engine_never_imports_django(package):
    offenders = []
    for path in sorted((ROOT / package).rglob("*.py")):
        for node in ast.walk(parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.relative_to(ROOT)}:{node.lineno} {n}" for n in names if n.split(".")[0] == "django"]
    assert list((ROOT / package).rglob("*.py")), f"{package}/ has no modules"
    assert offenders == []


def test_the_guard_catches_an_import(tmp_path):
    sample = "import os\nfrom django.db import models\n"
    hits = [
        n
        for n in ast.walk(parse(sample))
        if isinstance(n, ast.ImportFrom) and n.module and n.module.startswith("django")
    ]
    assert len(hits) == 1


# The app's layers (docs/code-map.md: Layers): a lower layer never imports a higher one. Views and urls sit on top;
# services under them; text (words) and files (formats) under services; models and the engines below all.
HIGHER = {
    "services": ("tournament.views", "tournament.urls", "tournament.forms"),
    "text": ("tournament.views", "tournament.urls", "tournament.forms", "tournament.services"),
    "files": ("tournament.views", "tournament.urls", "tournament.forms", "tournament.services"),
    "infra": ("tournament.views", "tournament.urls", "tournament.forms", "tournament.services", "tournament.jobs"),
    "forms": ("tournament.views", "tournament.urls", "tournament.jobs"),
    "records": (
        "tournament.views",
        "tournament.urls",
        "tournament.forms",
        "tournament.services",
        "tournament.pages",
        "tournament.jobs",
        "tournament.text",
    ),
}

# The app's root holds its entry points and the rows; everything else lives in a room (docs/code-map.md).
ROOT_MODULES = {"__init__", "admin", "apps", "models", "settings", "snapshot", "wsgi"}


def test_the_app_s_root_holds_only_its_entry_points_and_the_rows():
    """A new module beside models.py goes in a room (records/ for models kept beside its rows), not the root."""
    assert sorted(p.stem for p in (ROOT / "tournament").glob("*.py") if p.stem not in ROOT_MODULES) == []


def imported_modules(path: Path, package: str) -> list[tuple[int, str]]:
    """Every module a file imports, relative imports resolved against `package`, with its line."""
    found = []
    for node in ast.walk(parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            found += [(node.lineno, f"{base}.{a.name}") for a in node.names]
    return found


@pytest.mark.parametrize("layer", sorted(HIGHER))
def test_a_layer_never_imports_a_higher_one(layer):
    folder = ROOT / "tournament" / layer
    modules = sorted(folder.rglob("*.py"))
    assert modules, f"tournament/{layer}/ has no modules"
    offenders = [
        f"{path.relative_to(ROOT)}:{line} {name}"
        for path in modules
        for line, name in imported_modules(path, f"tournament.{layer}")
        if name.startswith(HIGHER[layer])
    ]
    assert offenders == []


def test_the_layer_guard_sees_every_kind_of_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import tournament.views.public\nfrom tournament import services\nfrom ..views import pages\n")
    names = [name for _, name in imported_modules(sample, "tournament.text")]
    assert names == ["tournament.views.public", "tournament.services", "tournament.views.pages"]
    assert all(n.startswith(HIGHER["text"]) for n in names)


@pytest.mark.parametrize("package", ["views", "urls", "services", "text", "files", "forms", "jobs", "infra", "pages"])
def test_each_package_says_what_lives_there(package):
    doc = ast.get_docstring(parse((ROOT / "tournament" / package / "__init__.py").read_text(encoding="utf-8")))
    assert doc and len(doc) > 60


@pytest.mark.parametrize("package", ["swiss", "standings"])
def test_the_pure_packages_say_what_lives_there_and_what_they_import(package):
    doc = ast.get_docstring(parse((ROOT / package / "__init__.py").read_text(encoding="utf-8")))
    assert doc and len(doc) > 60 and "import" in doc


# ---------------------------------------------------------------- the pure core: swiss/ under the engines

# What each pure package may import besides the standard library: swiss/ (the event everyone reads) only
# itself, the standings engine swiss/ too. Function-level imports count: a lazy import is still a dependency.
MAY_IMPORT = {"swiss": {"swiss"}, "standings": {"standings", "swiss"}}
# `python -m swiss` must be swiss/__main__.py: the command line on top of the whole core (it only starts
# pairing/tools/main.py), which no module imports.
ENTRY_POINTS = {"swiss/__main__.py"}


def foreign_imports(package: str) -> list[str]:
    """Every import in the package of something neither the standard library nor what it may import."""
    allowed = set(sys.stdlib_module_names) | MAY_IMPORT[package]
    return [
        f"{path.relative_to(ROOT)}:{line} {name}"
        for path in sorted((ROOT / package).rglob("*.py"))
        if path.relative_to(ROOT).as_posix() not in ENTRY_POINTS
        for line, name in imported_modules(path, ".".join(path.relative_to(ROOT).parent.parts))
        if name.split(".")[0] not in allowed
    ]


def test_no_module_imports_the_command_line_entry_point():
    importers = [
        f"{path.relative_to(ROOT)}:{line}"
        for package in FIRST_PARTY
        for path in sorted((ROOT / package).rglob("*.py"))
        for line, name in imported_modules(path, ".".join(path.relative_to(ROOT).parent.parts))
        if name.startswith("swiss.__main__")
    ]
    assert importers == []


@pytest.mark.parametrize("package", sorted(MAY_IMPORT))
def test_the_pure_core_imports_only_the_standard_library_and_the_layers_below(package):
    assert list((ROOT / package).rglob("*.py")), f"{package}/ has no modules"
    assert foreign_imports(package) == []


def test_the_core_guard_sees_a_lazy_import_of_an_engine(tmp_path, monkeypatch):
    (tmp_path / "swiss").mkdir()
    (tmp_path / "swiss" / "trf.py").write_text(
        "import re\nfrom swiss.model import Event\n\n\ndef f():\n    from standings.engine import compute\n"
    )
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert foreign_imports("swiss") == ["swiss/trf.py:6 standings.engine.compute"]


# ---------------------------------------------------------------- no import circle among our packages

FIRST_PARTY = ("swiss", "pairing", "standings", "tournament")


def module_files(root: Path) -> dict[str, Path]:
    """Every first-party module by dotted name (a package by its own name, for its __init__.py)."""
    modules = {}
    for package in FIRST_PARTY:
        for path in (root / package).rglob("*.py"):
            parts = path.relative_to(root).with_suffix("").parts
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def _type_checking(node: ast.If) -> bool:
    return "TYPE_CHECKING" in ast.unparse(node.test)


def top_level_imports(tree: ast.Module):
    """The imports a module runs when it is imported: not those inside functions, nor under TYPE_CHECKING."""
    pending = list(tree.body)
    while pending:
        node = pending.pop(0)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If):
            pending += node.orelse if _type_checking(node) else node.body + node.orelse
        elif isinstance(node, (ast.Try, ast.With, ast.ClassDef)):
            pending += [child for child in ast.iter_child_nodes(node) if isinstance(child, ast.stmt)]


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module -> the first-party modules it imports at its top level. `from p import n` is an edge to the module
    p.n when there is one, else to p; a package importing its own modules is no edge back from them."""
    modules = module_files(root)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges = set()
        for node in top_level_imports(parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                edges |= {a.name for a in node.names if a.name in modules}
                continue
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            for a in node.names:
                target = f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                if target in modules:
                    edges.add(target)
        graph[name] = edges - {name}
    return graph


def a_circle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle of the graph (its modules, the first one again at the end), or [] if there is none."""
    state: dict[str, str] = {}
    trail: list[str] = []

    def visit(module: str) -> list[str]:
        state[module] = "open"
        trail.append(module)
        for target in sorted(graph.get(module, ())):
            if state.get(target) == "open":
                return [*trail[trail.index(target) :], target]
            if target not in state and (circle := visit(target)):
                return circle
        state[module] = "done"
        trail.pop()
        return []

    for module in sorted(graph):
        if module not in state and (circle := visit(module)):
            return circle
    return []


def test_our_packages_import_each_other_without_a_circle():
    """A circle makes the import order decide what works (a name not yet defined halfway through one module).
    pairing/engine.py pairs by the Dutch system through pairing/dutch.py, which builds on engine.py: engine.py
    imports dutch.py inside a function and under TYPE_CHECKING only, which this graph leaves out."""
    graph = import_graph(ROOT)
    assert {"swiss.model", "standings.engine", "pairing.event", "tournament.models"} <= set(graph)
    assert "swiss.model" in graph["standings.engine"]
    assert a_circle(graph) == []


def test_the_circle_guard_sees_a_top_level_circle_and_not_a_deferred_one(tmp_path):
    (tmp_path / "pairing").mkdir()
    (tmp_path / "pairing" / "__init__.py").write_text("from pairing.engine import pair\n")
    (tmp_path / "pairing" / "dutch.py").write_text("from pairing.engine import Pair\n")
    deferred = (
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from pairing.dutch import DutchInput\n\n\n"
        "def pair():\n    from pairing.dutch import pair_dutch\n"
    )
    (tmp_path / "pairing" / "engine.py").write_text(deferred)
    assert a_circle(import_graph(tmp_path)) == []
    (tmp_path / "pairing" / "engine.py").write_text("from . import dutch\n" + deferred)
    assert a_circle(import_graph(tmp_path)) == ["pairing.engine", "pairing.dutch", "pairing.engine"]


def test_the_command_line_starts_without_the_heavy_libraries():
    """numpy and networkx take most of a command's start (0.8 of 1.4 s of CPU, once): the optimal engine, the
    standings and Django's start (admin, forms, services) never import them; the core never imports numpy (the
    Dutch system compresses its weights in plain Python), networkx only for weights too wide for rustworkx."""
    code = (
        "import os, sys, django\n"
        "os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'tournament.settings')\n"
        "django.setup()\n"
        "import pairing, standings, swiss.eventfile, tournament.services, tournament.forms\n"
        "from tournament.management.commands import pair\n"
        "print(sorted(m for m in ('numpy', 'networkx') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stderr


def test_services_has_one_import_style():
    """Callers import a workflow from the module that owns it: the package re-exports nothing."""
    tree = parse((ROOT / "tournament" / "services" / "__init__.py").read_text(encoding="utf-8"))
    assert not [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]


# ---------------------------------------------------------------- the pages floor: pages/ and jobs/ under views/

# What each page shows lives in tournament/pages/, between the views (the request: access, forms, HTTP headers) and
# the services; the jobs render their prints from there. Neither imports a view, not even inside a function: a lazy
# import is still a dependency (a job printing with a view's context builder once closed an import circle).
UNDER_VIEWS = {"pages": ("tournament.views", "tournament.urls"), "jobs": ("tournament.views", "tournament.urls")}


def imports_of_views(layer: str) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{line} {name}"
        for path in sorted((ROOT / "tournament" / layer).rglob("*.py"))
        for line, name in imported_modules(path, ".".join(path.relative_to(ROOT).parent.parts))
        if name.startswith(UNDER_VIEWS[layer])
    ]


@pytest.mark.parametrize("layer", sorted(UNDER_VIEWS))
def test_pages_and_jobs_never_import_views(layer):
    assert list((ROOT / "tournament" / layer).rglob("*.py")), f"tournament/{layer}/ has no modules"
    assert imports_of_views(layer) == []


def test_the_views_guard_sees_an_import_inside_a_function(tmp_path, monkeypatch):
    (tmp_path / "tournament" / "jobs").mkdir(parents=True)
    (tmp_path / "tournament" / "jobs" / "files.py").write_text(
        "from tournament.pages.rows import qr_svg\n\n\ndef crosstable():\n"
        "    from tournament.views.crosstable import crosstable_context\n"
    )
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert imports_of_views("jobs") == ["tournament/jobs/files.py:5 tournament.views.crosstable.crosstable_context"]


def private_names_between_views(root: Path) -> list[str]:
    """Every private name (`_x`) one module of tournament/views/ takes from another: imported by name, or read as
    an attribute of a view module it imported (`from tournament.views import rounds` ... `rounds._started`)."""
    found = []
    for path in sorted((root / "tournament" / "views").rglob("*.py")):
        package = ".".join(path.relative_to(root).parent.parts)
        tree = parse(path.read_text(encoding="utf-8"))
        modules = set()  # local names bound to a view module
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                    base = f"{parent}.{base}" if base else parent
                if not base.startswith("tournament.views"):
                    continue
                for a in node.names:
                    if a.name.startswith("_"):
                        found.append(f"{path.relative_to(root)}:{node.lineno} {base}.{a.name}")
                    elif base == "tournament.views":
                        modules.add(a.asname or a.name)
            elif isinstance(node, ast.Import):
                modules |= {a.asname for a in node.names if a.name.startswith("tournament.views.") and a.asname}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in modules
                and node.attr.startswith("_")
            ):
                found.append(f"{path.relative_to(root)}:{node.lineno} {node.value.id}.{node.attr}")
    return found


def test_no_view_takes_a_private_name_from_another():
    """A name starting with `_` is its module's own: what two views share is public, in views/responses.py or
    tournament/pages/, so that changing one view's insides never breaks another."""
    assert list((ROOT / "tournament" / "views").glob("*.py"))
    assert private_names_between_views(ROOT) == []


def test_the_private_name_guard_sees_both_ways_of_taking_one(tmp_path):
    (tmp_path / "tournament" / "views").mkdir(parents=True)
    (tmp_path / "tournament" / "views" / "results.py").write_text(
        "from tournament.views import rounds\nfrom tournament.views.responses import _next, back\n\n\n"
        "def f():\n    from .rounds import _round_context\n    return rounds._started, rounds.page\n"
    )
    assert private_names_between_views(tmp_path) == [
        "tournament/views/results.py:2 tournament.views.responses._next",
        "tournament/views/results.py:6 tournament.views.rounds._round_context",
        "tournament/views/results.py:7 rounds._started",
    ]


# ---------------------------------------------------------------- sizes, every import, the map, the tests' folders
PACKAGES = ("swiss", "pairing", "standings", "tournament")


def our_modules(root: Path) -> list[Path]:
    """Every module of the four packages but the migrations."""
    return sorted(p for package in PACKAGES for p in (root / package).rglob("*.py") if "migrations" not in p.parts)


# A module past 600 lines holds more than one idea: split it where a name explains each part (models.py, one table
# per class, may reach 800; migrations are written once and never read as code).
MAX_LINES, MAX_MODELS_LINES = 600, 800


def too_long(root: Path) -> dict[str, int]:
    return {
        str(p.relative_to(root)): n
        for p in our_modules(root)
        if (n := len(p.read_text(encoding="utf-8").splitlines()))
        > (MAX_MODELS_LINES if p.relative_to(root) == Path("tournament/models.py") else MAX_LINES)
    }


def test_no_module_grows_into_a_drawer():
    assert len(our_modules(ROOT)) > 100
    assert too_long(ROOT) == {}


def test_the_size_guard_counts_lines_and_lets_migrations_be(tmp_path):
    for name, lines in (("swiss/long.py", 601), ("swiss/short.py", 600), ("tournament/models.py", 799)):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x = 1\n" * lines)
    (tmp_path / "tournament/migrations").mkdir()
    (tmp_path / "tournament/migrations/0001_initial.py").write_text("x = 1\n" * 2000)
    assert too_long(tmp_path) == {"swiss/long.py": 601}


def every_import(tree: ast.Module):
    """Every import a module may run, inside functions and classes too: only those under TYPE_CHECKING, which
    never run, are left out (a lazy import is still a dependency, and a circle through one only waits)."""
    pending = list(tree.body)
    while pending:
        node = pending.pop(0)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If) and _type_checking(node):
            pending += node.orelse
        else:
            pending += [child for child in ast.iter_child_nodes(node) if isinstance(child, ast.stmt)]


def test_no_circle_even_through_imports_inside_functions(monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "top_level_imports", every_import)
    graph = import_graph(ROOT)
    assert "tournament.snapshot" in graph["tournament.jobs.files"]
    assert a_circle(graph) == []


def test_the_circle_guard_sees_an_import_inside_a_function(tmp_path, monkeypatch):
    (tmp_path / "tournament" / "views").mkdir(parents=True)
    (tmp_path / "tournament" / "jobs.py").write_text("def run():\n    from tournament.views import crosstable\n")
    (tmp_path / "tournament" / "views" / "crosstable.py").write_text("from tournament import jobs\n")
    assert a_circle(import_graph(tmp_path)) == []
    monkeypatch.setattr(sys.modules[__name__], "top_level_imports", every_import)
    assert a_circle(import_graph(tmp_path)) == ["tournament.jobs", "tournament.views.crosstable", "tournament.jobs"]


FENCED = re.compile(r"^```\n(.*?)^```", re.M | re.S)
WORD = re.compile(r"[\w.]+(?:/[\w.]+)*/?")


def mapped(text: str) -> set[str]:
    """The modules the map's trees name. A line starting with `folder/` or `name.py` is an entry under the folder
    of the nearest less indented folder entry; any other line continues the entry above it. An entry names its
    file, and a folder entry names the modules of that folder its words give (`text/  i18n, l10n.py`)."""
    named: set[str] = set()
    for block in FENCED.findall(text):
        folders: list[tuple[int, str]] = []  # (indent, path) of the folder entries above
        here = ""
        for line in block.splitlines():
            words = WORD.findall(line)
            if not words:
                continue
            indent = len(line) - len(line.lstrip())
            first = words[0]
            if first.endswith(("/", ".py")):
                while folders and folders[-1][0] >= indent:
                    folders.pop()
                parent = folders[-1][1] if folders else ""
                if first.endswith("/"):
                    here = parent + first
                    folders.append((indent, here))
                else:
                    here = parent
            named |= {here + w.removesuffix(".py").rstrip(".") + ".py" for w in words if not w.endswith("/")}
    return named


def unmapped(root: Path) -> list[str]:
    """The modules (packages' __init__.py aside) docs/code-map.md does not name."""
    named = mapped((root / "docs" / "code-map.md").read_text(encoding="utf-8"))
    return [
        str(p.relative_to(root))
        for p in our_modules(root)
        if p.name != "__init__.py" and str(p.relative_to(root)) not in named
    ]


def test_the_code_map_names_every_module():
    assert unmapped(ROOT) == []


def test_the_map_guard_finds_a_module_it_does_not_name(tmp_path):
    (tmp_path / "docs").mkdir()
    tree = (
        "```\nswiss/\n  model.py  the event; trf.py\ntournament/\n  text/  words: i18n,\n"
        "         l10n (and views.py)\n  views/\n    rounds.py  pair\n```\nswiss/names.py\n"
    )
    (tmp_path / "docs" / "code-map.md").write_text(tree)
    for name in (
        "swiss/model.py",
        "swiss/trf.py",
        "swiss/names.py",
        "tournament/text/i18n.py",
        "tournament/text/l10n.py",
        "tournament/views/rounds.py",
        "tournament/views/public.py",
        "pairing/rounds.py",
        "tournament/migrations/0001_a.py",
    ):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    assert unmapped(tmp_path) == ["pairing/rounds.py", "swiss/names.py", "tournament/views/public.py"]


def test_the_web_tests_live_in_folders_mirroring_the_code():
    """tests/web/ holds folders (organiser/, public/, phone/, jobs/, sections/, files/, i18n/, deploy/,
    security/; docs/testing.md), each a package, and no test file of its own."""
    web = ROOT / "tests" / "web"
    assert sorted(p.name for p in web.glob("*.py")) == ["__init__.py"]
    folders = [p for p in web.iterdir() if p.is_dir() and p.name != "__pycache__"]
    assert len(folders) >= 9
    assert [p.name for p in folders if not (p / "__init__.py").exists()] == []


# Models speak no words (labels and messages are read by the text layer and the forms), and the words of a game are
# chosen by an explicit context (tournament/text/game_words.py), never by writing Django's private translation state.
def _writes_trans_real(tree: ast.AST) -> list[int]:
    """The lines that assign into `trans_real` (its `_active`, any attribute of it), with `=`, `+=` or `setattr`."""

    def names_it(node) -> bool:
        return any(isinstance(n, ast.Name) and n.id == "trans_real" for n in ast.walk(node)) or any(
            isinstance(n, ast.Attribute) and n.attr == "trans_real" for n in ast.walk(node)
        )

    lines = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else []
        targets += [node.target] if isinstance(node, ast.AugAssign | ast.AnnAssign) else []
        lines += [node.lineno for t in targets if isinstance(t, ast.Attribute | ast.Subscript) and names_it(t)]
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("setattr", "delattr") and node.args:
            lines += [node.lineno] if names_it(node.args[0]) else []
    return lines


@pytest.mark.parametrize("path", ["tournament/models.py", "tournament/jobs/models.py"])
def test_models_import_nothing_from_the_text_layer(path):
    """Not at the top, not inside a function: `tournament.text` reads the models, never the other way round."""
    found = imported_modules(ROOT / path, "tournament")
    assert [(line, name) for line, name in found if name.startswith("tournament.text")] == []


def test_no_module_writes_trans_real():
    offenders = {
        str(p.relative_to(ROOT)): lines
        for base in ("tournament", "swiss", "pairing", "standings", "tests", "bench")
        for p in (ROOT / base).rglob("*.py")
        if (lines := _writes_trans_real(parse(p.read_text(encoding="utf-8"))))
    }
    assert offenders == {}


def test_the_trans_real_guard_sees_every_kind_of_write():
    samples = [
        "from django.utils.translation import trans_real\ntrans_real._active.value = words\n",
        "from django.utils.translation import trans_real\nsetattr(trans_real._active, 'value', words)\n",
        "from django.utils import translation\ntranslation.trans_real._translations['da'] = words\n",
    ]
    assert [bool(_writes_trans_real(parse(s))) for s in samples] == [True, True, True]
    read = "from django.utils.translation import trans_real\nactive = getattr(trans_real._active, 'value', None)\n"
    assert _writes_trans_real(parse(read)) == []


def test_the_models_guard_sees_an_import_inside_a_function(tmp_path):
    sample = tmp_path / "models.py"
    sample.write_text("def label(code):\n    from tournament.text import l10n\n\n    return l10n.label(code)\n")
    assert imported_modules(sample, "tournament") == [(2, "tournament.text.l10n")]
