"""The import-linter contracts in pyproject.toml hold on the real tree, and a violation breaks them."""
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
ROOT_PACKAGES = CONFIG["root_packages"]
CONTRACT_NAMES = {contract["id"]: contract["name"] for contract in CONFIG["contracts"]}


def lint_imports(cwd: Path) -> subprocess.CompletedProcess:
    """Runs lint-imports on the tree at `cwd`, importing the root packages from there and nowhere else."""
    env = {
        **os.environ,
        "PYTHONPATH": str(cwd),
        "COLUMNS": "200",  # contract names stay on one line
        "NO_COLOR": "1",
    }
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_contracts_are_kept_on_the_real_tree():
    result = lint_imports(ROOT)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    for name in CONTRACT_NAMES.values():
        assert f"{name} KEPT" in output
    assert f"{len(CONTRACT_NAMES)} kept, 0 broken" in output


def test_a_violation_breaks_its_contract(tmp_path):
    """One violation, to prove the configuration catches one: the ruleset registry reaching for Django, which only
    the `include_external_packages` setting puts in the graph. import-linter's own tests cover the other kinds."""
    for package in ROOT_PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    registry = tmp_path / "engines" / "rulesets.py"
    registry.write_text(registry.read_text(encoding="utf-8") + "\nimport django\n", encoding="utf-8")

    result = lint_imports(tmp_path)

    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert f"{CONTRACT_NAMES['pure-engines']} BROKEN" in output
    assert "engines.rulesets -> django" in output
