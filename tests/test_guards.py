"""The pure core stays pure: no Django anywhere in swiss/, pairing/ or standings/, swiss/ below both engines, no module
grown into a drawer, and no import circle among our packages (docs/code-map.md)."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("package", ["swiss", "pairing", "standings"])
def test_engine_never_imports_django(package):
    offenders = []
    for path in sorted((ROOT / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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
        for n in ast.walk(ast.parse(sample))
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
}


def imported_modules(path: Path, package: str) -> list[tuple[int, str]]:
    """Every module a file imports, relative imports resolved against `package`, with its line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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


@pytest.mark.parametrize("package", ["views", "urls", "services", "text", "files", "forms", "jobs", "infra"])
def test_each_package_says_what_lives_there(package):
    doc = ast.get_docstring(ast.parse((ROOT / "tournament" / package / "__init__.py").read_text(encoding="utf-8")))
    assert doc and len(doc) > 60


@pytest.mark.parametrize("package", ["swiss", "standings"])
def test_the_pure_packages_say_what_lives_there_and_what_they_import(package):
    doc = ast.get_docstring(ast.parse((ROOT / package / "__init__.py").read_text(encoding="utf-8")))
    assert doc and len(doc) > 60 and "import" in doc


# ---------------------------------------------------------------- the pure core: swiss/ under the engines

# What each pure package may import besides the standard library: swiss/ (the event everyone reads) only
# itself, the standings engine swiss/ too. Function-level imports count: a lazy import is still a dependency.
MAY_IMPORT = {"swiss": {"swiss"}, "standings": {"standings", "swiss"}}


def foreign_imports(package: str) -> list[str]:
    """Every import in the package of something neither the standard library nor what it may import."""
    allowed = set(sys.stdlib_module_names) | MAY_IMPORT[package]
    return [
        f"{path.relative_to(ROOT)}:{line} {name}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for line, name in imported_modules(path, ".".join(path.relative_to(ROOT).parent.parts))
        if name.split(".")[0] not in allowed
    ]


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


@pytest.mark.parametrize("package", ["swiss", "pairing", "standings"])
def test_no_module_of_the_pure_core_grows_into_a_drawer(package):
    """A module past about 700 lines holds two ideas (STYLE.md): split it where a name explains each part."""
    long = {
        str(p.relative_to(ROOT)): n
        for p in (ROOT / package).rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > 750
    }
    assert long == {}


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
        for node in top_level_imports(ast.parse(path.read_text(encoding="utf-8"))):
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


def test_no_module_grows_into_a_drawer():
    """A module past about 700 lines holds several areas: split it by audience or workflow (models may stay one)."""
    long = {
        str(p.relative_to(ROOT)): n
        for p in (ROOT / "tournament").rglob("*.py")
        if "migrations" not in p.parts
        and p.name != "models.py"
        and (n := len(p.read_text(encoding="utf-8").splitlines())) > 750
    }
    assert long == {}


def test_the_command_line_starts_without_the_heavy_libraries():
    """numpy and networkx take most of a command's start (0.8 of 1.4 s of CPU, once): the optimal engine, the
    standings and Django's start (admin, forms, services) never import them; the Dutch system imports numpy
    when it first matches a bracket, networkx only for weights too wide for rustworkx."""
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
    tree = ast.parse((ROOT / "tournament" / "services" / "__init__.py").read_text(encoding="utf-8"))
    assert not [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]


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
        if (lines := _writes_trans_real(ast.parse(p.read_text(encoding="utf-8"))))
    }
    assert offenders == {}


def test_the_trans_real_guard_sees_every_kind_of_write():
    samples = [
        "from django.utils.translation import trans_real\ntrans_real._active.value = words\n",
        "from django.utils.translation import trans_real\nsetattr(trans_real._active, 'value', words)\n",
        "from django.utils import translation\ntranslation.trans_real._translations['da'] = words\n",
    ]
    assert [bool(_writes_trans_real(ast.parse(s))) for s in samples] == [True, True, True]
    read = "from django.utils.translation import trans_real\nactive = getattr(trans_real._active, 'value', None)\n"
    assert _writes_trans_real(ast.parse(read)) == []


def test_the_models_guard_sees_an_import_inside_a_function(tmp_path):
    sample = tmp_path / "models.py"
    sample.write_text("def label(code):\n    from tournament.text import l10n\n\n    return l10n.label(code)\n")
    assert imported_modules(sample, "tournament") == [(2, "tournament.text.l10n")]
