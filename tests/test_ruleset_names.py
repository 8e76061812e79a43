"""Ruleset names are spelled only in the registry, the presets and the demo (one home for each ruleset fact).

Everything else asks the registry (engines/rulesets.py: `ruleset_for`, its fields, DEFAULT_RULESET) and never
compares or picks a ruleset by its name. Migrations keep the choices as they were when written; tests, benchmarks
and prose (docstrings, help texts that mention a name among other words) are not looked at.
"""
import ast
import tomllib
from pathlib import Path

from engines.rulesets import RULESETS

ROOT = Path(__file__).resolve().parent.parent
ALLOWED = ("engines/rulesets.py", "championships/presets.py", "demo/")


def spelled_names(source: str) -> list[tuple[int, str]]:
    """(line, name) of each string in the code that is exactly a registered ruleset's name."""
    return [(node.lineno, node.value) for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in RULESETS]


def application_modules() -> list[Path]:
    """The modules of the packages the project installs (pyproject.toml), migrations left out."""
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "packages"]["find"]["include"]
    packages = [ROOT / pattern.rstrip("*") for pattern in patterns]
    return sorted(path for package in packages for path in package.rglob("*.py") if "migrations" not in path.parts)


def test_a_ruleset_name_in_the_code_is_found():
    assert spelled_names('if tournament.ruleset == "cnc-2022":\n    pass\nx = ("cwc-2025", "lord-of-catan")') == [
        (1, "cnc-2022"), (3, "cwc-2025"), (3, "lord-of-catan")]
    assert spelled_names('"""Under cwc-2025 positions differ."""\nx = "cwc-2025 rules"') == []


def test_only_the_registry_the_presets_and_the_demo_spell_a_ruleset_name():
    modules = application_modules()
    assert ROOT / "engines" / "rulesets.py" in modules and len(modules) > 100
    spelled = [f"{path.relative_to(ROOT)}:{line}: {name}" for path in modules
               if not path.relative_to(ROOT).as_posix().startswith(ALLOWED)
               for line, name in spelled_names(path.read_text(encoding="utf-8"))]
    assert not spelled, "ask engines/rulesets.py instead of naming a ruleset: " + ", ".join(spelled)
