"""What every stack start would otherwise redo, made once and reused while its inputs are unchanged, as an image's
layers are: the migrated database (a PostgreSQL template per migration state, cloned in a second) and the collected
static files (a folder per state of the static sources, WhiteNoise's compression taking a minute on two cores).

A state is the SHA-256 of the inputs' contents, the installed distributions (their migrations and static files come
with their versions) and the settings; a changed input makes a new one, the older ones beyond `KEEP` are removed.
Each is built under a temporary name and then renamed, so a run interrupted half-way leaves nothing that looks done.
"""
import hashlib
import os
import re
import shutil
import subprocess
import sysconfig
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP = {".git", ".venv", "node_modules", "staticfiles", "__pycache__", ".mypy_cache", ".ruff_cache"}
TEMPLATE_PREFIX = "catan_stack_template_"
STATIC_PREFIX = "catan_stack_static_"
KEEP = 3
"""States kept of each (other branches' runs share the server and /tmp)."""


def state(folder_name: str) -> str:
    """The state of every project folder called `folder_name` (migrations, static), 16 hex digits."""
    digest = hashlib.sha256()
    for top, folders, files in os.walk(ROOT):
        folders[:] = sorted(f for f in folders if f not in SKIP)
        if folder_name not in Path(top).relative_to(ROOT).parts:
            continue
        for name in sorted(files):
            path = Path(top) / name
            digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
            for module in _project_imports(path):  # a data migration's helpers (core.names) shape its rows
                digest.update(module.read_bytes())
    packages = Path(sysconfig.get_paths()["purelib"])
    digest.update("\n".join(sorted(p.name for p in packages.glob("*.dist-info"))).encode())
    digest.update((ROOT / "catan_tournaments" / "settings.py").read_bytes())
    return digest.hexdigest()[:16]


def _project_imports(path: Path) -> list[Path]:
    """The project's modules a Python file imports (`from core.names import fold`: core/names.py)."""
    if path.suffix != ".py":
        return []
    found = []
    for dotted in re.findall(r"^\s*(?:from|import)\s+([\w.]+)", path.read_text(), re.M):
        module = ROOT.joinpath(*dotted.split("."))
        for candidate in (module.with_suffix(".py"), module / "__init__.py"):
            if candidate.is_file() and candidate != path:
                found.append(candidate)
    return found


def template_database(psql: Callable[..., str], migrate: Callable[[str], None]) -> tuple[str, bool]:
    """The name of a template database migrated to the current state, made (by `migrate(database)`) if missing;
    and whether it was."""
    name = TEMPLATE_PREFIX + state("migrations")
    if made := not psql(f"SELECT 1 FROM pg_database WHERE datname = '{name}'"):
        building = f"catan_stack_building_{os.getpid()}"
        psql(f'DROP DATABASE IF EXISTS "{building}" WITH (FORCE)')
        psql(f'CREATE DATABASE "{building}"')
        try:
            migrate(building)
            psql(f'ALTER DATABASE "{building}" RENAME TO "{name}"')
        except subprocess.CalledProcessError as error:
            if "already exists" not in (error.stderr or ""):  # another run made the same state meanwhile
                raise
        finally:
            psql(f'DROP DATABASE IF EXISTS "{building}" WITH (FORCE)')
        older = psql(f"SELECT datname FROM pg_database WHERE datname LIKE '{TEMPLATE_PREFIX}%' "
                     f"AND datname <> '{name}' ORDER BY oid DESC OFFSET {KEEP - 1}").split()
        for database in older:
            psql(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
    return name, made


def static_root(collect: Callable[[Path], None]) -> tuple[Path, bool]:
    """The folder holding the static files collected in the current state, collected (by `collect(folder)`) if
    missing; and whether it was."""
    folder = Path("/tmp") / (STATIC_PREFIX + state("static"))
    if folder.is_dir():
        os.utime(folder)  # the most recently used are kept
        return folder, False
    building = folder.with_name(f"{folder.name}.building-{os.getpid()}")
    shutil.rmtree(building, ignore_errors=True)
    try:
        collect(building)
        building.rename(folder)
    except OSError:
        if not folder.is_dir():
            raise
    finally:
        shutil.rmtree(building, ignore_errors=True)
    others = sorted((p for p in folder.parent.glob(f"{STATIC_PREFIX}*") if p != folder and "." not in p.name),
                    key=lambda p: p.stat().st_mtime, reverse=True)
    for old in others[KEEP - 1:]:
        shutil.rmtree(old, ignore_errors=True)
    return folder, True
