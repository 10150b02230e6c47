"""The dashboard's layering, read from the source (an AST walk, no import):

- nothing outside `service/` imports from `service` (the dashboard goes through `portal.service`);
- no dashboard module outside `portal/service/` spells out an API path.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUTSIDE_SERVICE = ("portal", "companies", "watchlists", "screening", "reports", "scripts", "vakt_format", "vakt_limits")


def _python_files(*folders: str) -> list[Path]:
    return sorted(path for folder in folders for path in (ROOT / folder).rglob("*.py"))


def _imports_of_service(source: str) -> list[tuple[int, str]]:
    """(line, module) of every absolute import of `service` or `service.<anything>`, also through importlib."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", None)) in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names = [node.args[0].value]
        found += [(node.lineno, name) for name in names if name == "service" or name.startswith("service.")]
    return found


def _api_paths_in(source: str) -> list[tuple[int, str]]:
    """(line, text) of strings holding an API path; an f-string's parts count once, as the whole."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "v1/" in node.value:
            found.append((node.lineno, node.value))
        elif isinstance(node, ast.JoinedStr):
            text = "".join(part.value for part in node.values if isinstance(part, ast.Constant) and isinstance(part.value, str))
            if "v1/" in text:
                found.append((node.lineno, text))
    return sorted({line: text for line, text in found}.items())


def test_the_walk_sees_every_form_of_import():
    source = (
        "import service\nimport service.companies.models as m\nfrom service.auth import services\n"
        "from portal.service import ServiceError\nimport importlib\nimportlib.import_module('service.errors')\n"
        "from . import service\nimport services_elsewhere\n"
    )
    assert [name for _, name in _imports_of_service(source)] == [
        "service", "service.companies.models", "service.auth", "service.errors"
    ]


def test_nothing_outside_service_imports_from_it():
    files = _python_files(*OUTSIDE_SERVICE)
    assert any(path.parts[-2:] == ("views", "__init__.py") or path.name == "views.py" for path in files)  # the walk reads the apps

    offenders = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in files
        for line, name in _imports_of_service(path.read_text())
    ]

    assert offenders == [], "use portal.service instead:\n" + "\n".join(offenders)


def test_the_walk_sees_api_paths_in_plain_and_formatted_strings():
    source = 'a = "v1/company"\nb = f"v1/app-customer/{x}/overview"\nc = "/companies/"\n'
    assert [line for line, _ in _api_paths_in(source)] == [1, 2]


def test_no_view_spells_out_an_api_path():
    service_layer = ROOT / "portal" / "service"
    offenders = [
        f"{path.relative_to(ROOT)}:{line} {text!r}"
        for path in _python_files("portal", "companies", "watchlists", "screening", "reports")
        if service_layer not in path.parents
        for line, text in _api_paths_in(path.read_text())
    ]

    assert offenders == [], "API paths belong in an area module of portal/service/:\n" + "\n".join(offenders)
