"""The engine tests run in two environments: the project's own (Django installed) and the core's alone (`pip
install .`, no Django: .ci/core runs them there with `--confcutdir tests/engines`, so tests/conftest.py, which
sets Django up, is not loaded). A module that imports Django or the web app (as the tests of the management
commands do), or another test module that does, is left out where Django is absent; the others import only the
core and run in both."""

from __future__ import annotations

import ast
import importlib.util
from functools import cache
from pathlib import Path

HERE = Path(__file__).parent
WEB = frozenset({"django", "tournament", "pytest_django", "time_machine"})


@cache
def needs_django(name: str) -> bool:
    """Whether tests/engines/<name> imports Django or the web app, itself or through another test module here."""
    for node in ast.walk(ast.parse((HERE / name).read_text(encoding="utf-8"), name)):
        if isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules = [node.module]
        else:
            continue
        for module in modules:
            parts = module.split(".")
            if parts[0] in WEB:
                return True
            if parts[:2] == ["tests", "engines"] and len(parts) == 3 and needs_django(parts[2] + ".py"):
                return True
    return False


def modules_needing_django() -> list[str]:
    return sorted(p.name for p in HERE.glob("test_*.py") if needs_django(p.name))


collect_ignore = modules_needing_django() if importlib.util.find_spec("django") is None else []
