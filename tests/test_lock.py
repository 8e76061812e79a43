"""The lock files in requirements/ (written by `make lock`) match pyproject.toml.

Installs come from them alone (`make install`, `.ci/run`, the Dockerfile), so a requirement added, removed or
narrowed in pyproject.toml without `make lock` would go unnoticed until a fresh install: this fails instead.
"""
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
OURS = f"{PROJECT['name']} (pyproject.toml)"  # how a lock file says a package is one of our requirements
# Each lock file with the extras it holds, and the one it is constrained by (the versions they share agree).
LOCKS = {"runtime.txt": ((), None), "dev.txt": (("dev", "e2e"), "runtime.txt"),
         "bench.txt": (("dev", "e2e", "bench"), "dev.txt")}


@dataclass
class Pin:
    version: Version
    hashes: int = 0
    ours: bool = False


def read_lock(name: str) -> dict[str, list[Pin]]:
    pins: dict[str, list[Pin]] = {}
    pin = None
    for line in (ROOT / "requirements" / name).read_text(encoding="utf-8").splitlines():
        text = line.strip()
        if line and not line[0].isspace() and not text.startswith("#"):
            requirement, version = text.split(";")[0].rstrip(" \\").split("==")
            pin = Pin(Version(version))
            pins.setdefault(canonicalize_name(requirement), []).append(pin)
        elif pin and text.startswith("--hash=sha256:"):
            pin.hashes += 1
        elif pin and text.startswith("#"):
            pin.ours = pin.ours or OURS in text
    return pins


def requirements(extras) -> list[Requirement]:
    found = [Requirement(text) for text in PROJECT["dependencies"]]
    for extra in extras:
        found += [Requirement(text) for text in PROJECT["optional-dependencies"][extra]]
    return found


@pytest.mark.parametrize("name", LOCKS)
def test_every_requirement_is_pinned_within_its_range_and_nothing_else_is_ours(name):
    extras, _ = LOCKS[name]
    pins = read_lock(name)
    wanted = requirements(extras)
    for requirement in wanted:
        locked = pins.get(canonicalize_name(requirement.name))
        assert locked, f"{requirement.name} is not in requirements/{name}: run `make lock`"
        for pin in locked:
            assert requirement.specifier.contains(pin.version, prereleases=True), (
                f"requirements/{name} pins {requirement.name}=={pin.version}, outside {requirement.specifier}: "
                "run `make lock`")
    stale = {package for package, locked in pins.items() if any(pin.ours for pin in locked)} - {
        canonicalize_name(requirement.name) for requirement in wanted}
    assert not stale, f"requirements/{name} still has {sorted(stale)} as requirements: run `make lock`"


@pytest.mark.parametrize("name", LOCKS)
def test_every_pin_is_hash_checked(name):
    unchecked = [package for package, locked in read_lock(name).items() if any(pin.hashes == 0 for pin in locked)]
    assert not unchecked


@pytest.mark.parametrize("name", [name for name, (_, base) in LOCKS.items() if base])
def test_the_lock_files_agree_on_every_version_they_share(name):
    base = read_lock(LOCKS[name][1])
    pins = read_lock(name)
    assert base.keys() <= pins.keys()
    for package, locked in base.items():
        assert [pin.version for pin in pins[package]] == [pin.version for pin in locked], package


APPS = tuple(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]["packages"])
"""The site's own packages, as mypy checks them."""


def _imports(tree):
    """Top-level module names a module imports when it runs (not those under `if TYPE_CHECKING:`)."""
    import ast
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", getattr(node.test, "attr", "")) == "TYPE_CHECKING":
            yield from (name for child in node.orelse for name in _imports(child))
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0]
        else:
            yield from _imports(node)


def test_every_package_the_site_imports_is_one_of_our_requirements():
    """A package our code imports arrives by name, not as someone else's dependency: a release of theirs that drops
    it would break us silently. The site's modules are read for what they import when they run; `reliability/`
    (`make load`, `make stack`) may use the development requirements too."""
    import ast
    import sys
    from importlib.metadata import packages_distributions

    def names(requirements) -> set[str]:
        return {canonicalize_name(Requirement(r).name) for r in requirements}

    runtime = names(PROJECT["dependencies"])
    development = runtime | names(r for extra in PROJECT["optional-dependencies"].values() for r in extra)
    distributions = packages_distributions()
    undeclared: dict[str, str] = {}
    for app in APPS:
        declared = development if app == "reliability" else runtime
        for path in (ROOT / app).rglob("*.py"):
            for top in _imports(ast.parse(path.read_text(encoding="utf-8"))):
                if top in sys.stdlib_module_names or top in APPS:
                    continue
                if not {canonicalize_name(d) for d in distributions.get(top, [top])} & declared:
                    undeclared.setdefault(top, str(path.relative_to(ROOT)))
    assert undeclared == {}
