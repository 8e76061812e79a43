"""The import-linter contracts in pyproject.toml hold on the real tree, and a layering violation breaks them."""
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

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


@pytest.fixture
def project_copy(tmp_path):
    """The root packages and pyproject.toml, copied so a test can break them."""
    for package in ROOT_PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


@pytest.mark.parametrize(
    ("module", "violation", "contract_id", "chain"),
    [
        # The ruleset registry reaching for Django settings.
        ("engines/rulesets.py", "import django", "pure-engines", "engines.rulesets -> django"),
        # A lower app importing a higher one.
        ("results/models.py", "from ranking import standings", "layers", "results.models -> ranking"),
        # An app importing the project package (the Celery app) instead of using shared_task.
        (
            "scheduling/tasks.py",
            "from catan_tournaments.celery import app",
            "layers",
            "scheduling.tasks -> catan_tournaments.celery",
        ),
        # The project importing the demo seed.
        (
            "catan_tournaments/urls.py",
            "import demo.seed",
            "nothing-imports-demo",
            "catan_tournaments.urls -> demo.seed",
        ),
    ],
)
def test_a_violation_breaks_its_contract(project_copy, module, violation, contract_id, chain):
    path = project_copy / module
    path.write_text(path.read_text(encoding="utf-8") + f"\n{violation}\n", encoding="utf-8")

    result = lint_imports(project_copy)

    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert f"{CONTRACT_NAMES[contract_id]} BROKEN" in output
    assert chain in output
