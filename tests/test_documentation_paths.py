"""The maps are true: every file, folder, link and Python name the README and
the design notes give exists, and every environment variable the code reads
is on the settings page.

A renamed module or folder fails here until the notes are changed with it,
so a newcomer who follows a note finds what it names.
"""

from __future__ import annotations

import ast
import re
import tomllib
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = sorted(
    [ROOT / "README.md"]
    + [ROOT / folder / "README.md" for folder in ("joker", "docker", "benchmarks")]
    + list((ROOT / "docs").glob("*.md"))
)
DOCUMENT_IDS = [str(path.relative_to(ROOT)) for path in DOCUMENTS]
# Made by running the project, not part of the repository: a note may name
# them, and a fresh clone has none of them.
MADE_BY_RUNNING = {"var", "staticfiles", "node_modules", ".venv", ".git"}
TOP_LEVEL = {path.name for path in ROOT.iterdir()} - MADE_BY_RUNNING
# The project's apps, config and the engine: the import layers' packages.
PACKAGES = set(
    tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"][
        "root_packages"
    ]
)

CODE_SPAN = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)\)")
DOTTED_NAME = re.compile(r"[a-z_]+(?:\.[A-Za-z_][A-Za-z0-9_]*)+")


def spans(document: Path) -> list[tuple[int, str]]:
    """Each code span of ``document`` with its line number."""
    text = document.read_text()
    return [
        (text.count("\n", 0, match.start()) + 1, match.group(1).strip())
        for match in CODE_SPAN.finditer(text)
    ]


def repository_path(span: str) -> str | None:
    """The path a code span names in the repository, if it names one: its
    first part is a file or folder at the top of the repository. A test's
    node id, a line number or an anchor after the path is left off."""
    if " " in span or span.startswith(("/", "http")):
        return None
    path = re.split(r"::|#|:\d", span)[0]
    if path.split("/")[0] not in TOP_LEVEL:
        return None
    return path


def missing(path: str) -> bool:
    pattern = re.sub(r"<[^>]+>", "*", path.rstrip("/"))
    if "*" in pattern:
        return not any(ROOT.glob(pattern))
    return not (ROOT / pattern).exists()


@pytest.mark.parametrize("document", DOCUMENTS, ids=DOCUMENT_IDS)
def test_every_path_in_code_exists(document):
    wrong = [
        f"line {line}: {span}"
        for line, span in spans(document)
        if (path := repository_path(span)) and missing(path)
    ]
    assert not wrong, f"{document.name} names what is not there: {wrong}"


@pytest.mark.parametrize("document", DOCUMENTS, ids=DOCUMENT_IDS)
def test_every_named_test_exists(document):
    """``tests/x.py::test_y[...]`` names a test ``test_y`` of that file."""
    wrong = []
    for line, span in spans(document):
        path = repository_path(span)
        if not path or "::" not in span or missing(path):
            continue
        name = re.split(r"[\[:]", span.split("::", 1)[1])[0]
        defined = rf"\b(?:def|class) {re.escape(name)}\b"
        if not re.search(defined, (ROOT / path).read_text()):
            wrong.append(f"line {line}: {span}")
    assert not wrong, f"{document.name} names tests that are not there: {wrong}"


def heading_anchors(document: Path) -> set[str]:
    """The anchors GitHub gives the headings of ``document``."""
    anchors = set()
    for line in document.read_text().splitlines():
        if match := re.match(r"#+ (.+)", line):
            title = re.sub(r"[^\w\- ]", "", match.group(1).strip().lower())
            anchors.add(title.replace(" ", "-"))
    return anchors


@pytest.mark.parametrize("document", DOCUMENTS, ids=DOCUMENT_IDS)
def test_every_link_leads_somewhere(document):
    wrong = []
    for target in LINK.findall(document.read_text()):
        if re.match(r"[a-z]+:", target):
            continue
        address, _, anchor = target.partition("#")
        linked = (document.parent / address).resolve() if address else document
        if not linked.exists() or (
            anchor and linked.suffix == ".md" and anchor not in heading_anchors(linked)
        ):
            wrong.append(target)
    assert not wrong, f"{document.name} links to what is not there: {wrong}"


def layout_paths() -> list[str]:
    """The files and folders of the README's Layout, each nested one under
    the folder above it."""
    text = (ROOT / "README.md").read_text()
    block = text.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    paths, parent = [], ""
    for line in block.splitlines():
        if not line.startswith("    "):
            continue
        indent = len(line) - len(line.lstrip())
        names = re.split(r"\s{2,}", line.strip())[0]
        for name in names.split(", "):
            if indent == 4:
                paths.append(name)
                parent = name if name.endswith("/") else parent
            else:
                paths.append(parent + name)
    return paths


def test_the_readme_layout_names_what_is_there():
    paths = layout_paths()
    assert "joker/" in paths and "games/live/" in paths
    assert not [path for path in paths if missing(path)]


def test_every_app_is_in_the_readme_layout():
    paths = set(layout_paths())
    assert not [name for name in sorted(PACKAGES) if f"{name}/" not in paths]


@cache
def definitions(module: Path) -> dict[str, ast.AST]:
    """The names ``module`` defines or imports at its top, each with its
    statement: a name defined in either branch of a top-level ``if`` (one
    given a type for the checker, ``if TYPE_CHECKING:``) too."""
    names: dict[str, ast.AST] = {}
    statements = list(ast.parse(module.read_text()).body)
    while statements:
        node = statements.pop(0)
        if isinstance(node, ast.If):
            statements[:0] = [*node.body, *node.orelse]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names[node.name] = node
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        names[name.id] = node
        elif isinstance(node, ast.ImportFrom | ast.Import):
            for alias in node.names:
                names[(alias.asname or alias.name).split(".")[0]] = node
    return names


def module_file(dotted: str) -> Path | None:
    base = ROOT.joinpath(*dotted.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def imported_from(module: str, path: Path, node: ast.ImportFrom) -> str:
    """The module ``from ... import`` in ``module`` imports from."""
    if not node.level:
        return node.module or ""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def defines(module: str, attributes: list[str]) -> bool:
    """Whether ``module.attributes...`` is there: a name the module defines
    (a class's own names under it) or imports from a module of the project."""
    path = module_file(module)
    if path is None:
        return False
    if not attributes:
        return True
    node = definitions(path).get(attributes[0])
    if node is None:
        return module_file(f"{module}.{attributes[0]}") is not None and defines(
            f"{module}.{attributes[0]}", attributes[1:]
        )
    if isinstance(node, ast.ImportFrom):
        source = imported_from(module, path, node)
        name = next(a.name for a in node.names if (a.asname or a.name) == attributes[0])
        if source.split(".")[0] not in PACKAGES:
            return True
        return defines(source, [name, *attributes[1:]]) or defines(
            f"{source}.{name}", attributes[1:]
        )
    for attribute in attributes[1:]:
        if not isinstance(node, ast.ClassDef):
            return True
        inner = {getattr(child, "name", None): child for child in node.body} | {
            target.id: child
            for child in node.body
            if isinstance(child, ast.Assign)
            for target in child.targets
            if isinstance(target, ast.Name)
        }
        node = inner.get(attribute)
        if node is None:
            return False
    return True


def resolves(name: str) -> bool:
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        if module_file(".".join(parts[:cut])):
            return defines(".".join(parts[:cut]), parts[cut:])
    return False


@cache
def string_literals() -> str:
    """The project's Python source, where a name may be a string: a
    permission (``"games.annul_game"``) or a message's type."""
    return "\n".join(
        path.read_text()
        for package in sorted(PACKAGES)
        for path in (ROOT / package).rglob("*.py")
    )


def named_elsewhere(name: str) -> bool:
    """``app.Model``, or a permission or message type the code spells out."""
    app, _, rest = name.partition(".")
    if "." not in rest and resolves(f"{app}.models.{rest}"):
        return True
    return f'"{name}"' in string_literals()


@pytest.mark.parametrize("document", DOCUMENTS, ids=DOCUMENT_IDS)
def test_every_python_name_exists(document):
    wrong = [
        f"line {line}: {span}"
        for line, span in spans(document)
        if DOTTED_NAME.fullmatch(span)
        and span.split(".")[0] in PACKAGES
        and not resolves(span)
        and not named_elsewhere(span)
    ]
    assert not wrong, f"{document.name} names what the code has not: {wrong}"


# Read by what runs the project, not by people who set it up.
NOT_SETTINGS = {"PYTEST_XDIST_WORKER"}
READS = re.compile(
    r"""(?:\benv(?:\.\w+)?\(|environ\.get\(|environ\[|getenv\()\s*["']([A-Z][A-Z0-9_]+)["']"""
)


def test_every_environment_variable_read_is_on_the_settings_page():
    sources = [ROOT / package for package in sorted(PACKAGES)] + [ROOT / "scripts"]
    read = {
        name
        for source in sources
        for path in source.rglob("*.py")
        for name in READS.findall(path.read_text())
    } - NOT_SETTINGS
    page = (ROOT / "docs" / "settings.md").read_text()
    assert "PULKA_HOST" in read and "DATABASE_URL" in read
    assert not sorted(name for name in read if f"`{name}`" not in page)
