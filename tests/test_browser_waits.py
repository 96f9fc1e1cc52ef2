"""Every `wait_for_function` in the browser tests polls a function.

Playwright evaluates a string predicate with `eval` on every poll after
the first. The site's Content-Security-Policy forbids `eval`, so such a
wait passes only when its condition already holds at the first check and
fails with an EvalError otherwise: a flaky test. A predicate written as a
function is compiled once, inside the evaluation the policy allows, and
then called on each poll.
"""

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def module_strings(tree: ast.Module) -> dict[str, str]:
    """The module's names bound to a string literal."""
    strings = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for target in node.targets:
                if isinstance(target, ast.Name) and isinstance(node.value.value, str):
                    strings[target.id] = node.value.value
    return strings


def string_predicates(path: Path):
    """(line, predicate) of each wait whose predicate is a string not a function."""
    tree = ast.parse(path.read_text())
    strings = module_strings(tree)
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "wait_for_function"
        ):
            continue
        predicate = node.args[0]
        if isinstance(predicate, ast.Name):
            text = strings.get(predicate.id)
        elif isinstance(predicate, ast.Constant):
            text = predicate.value
        else:
            text = None  # built at run time: not judged here
        if isinstance(text, str) and not looks_like_a_function(text):
            yield node.lineno, text


def looks_like_a_function(text: str) -> bool:
    head = text.lstrip()
    arrow = head.split("=>", 1)[0]
    return head.startswith(("(", "function", "async")) or (
        "=>" in head and arrow.strip().isidentifier()
    )


def test_a_string_predicate_is_caught():
    assert not looks_like_a_function("window.notified.length === 1")
    assert looks_like_a_function("() => window.notified.length === 1")
    assert looks_like_a_function("n => n > 1")


def test_every_wait_polls_a_function():
    found = [
        f"{path.relative_to(TESTS)}:{line}: {text[:60]}"
        for path in sorted(TESTS.rglob("*.py"))
        for line, text in string_predicates(path)
    ]
    assert found == []
