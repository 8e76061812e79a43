"""What a stack start reuses (reliability/prepared.py): made once per state of its inputs, made again when one
changes, and never left looking done by a run that failed half-way."""
import re
import subprocess
from pathlib import Path

import pytest

from reliability import prepared


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project of its own: an app with migrations and static files, and its settings."""
    (tmp_path / "catan_tournaments").mkdir()
    (tmp_path / "catan_tournaments" / "settings.py").write_text("DEBUG = False\n")
    for folder in ("app/migrations", "app/static/app", "app/templates"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "app" / "migrations" / "0001_initial.py").write_text("operations = []\n")
    (tmp_path / "app" / "static" / "app" / "site.css").write_text("body {}\n")
    (tmp_path / "app" / "templates" / "page.html").write_text("<p>\n")
    monkeypatch.setattr(prepared, "ROOT", tmp_path)
    return tmp_path


def test_a_state_changes_with_its_own_inputs_only(project):
    migrations, static = prepared.state("migrations"), prepared.state("static")
    (project / "app" / "templates" / "page.html").write_text("<p>changed\n")
    assert (prepared.state("migrations"), prepared.state("static")) == (migrations, static)
    (project / "app" / "migrations" / "0002_more.py").write_text("operations = []\n")
    assert prepared.state("migrations") != migrations and prepared.state("static") == static
    (project / "catan_tournaments" / "settings.py").write_text("DEBUG = True\n")
    assert prepared.state("static") != static


class Server:
    """The databases a PostgreSQL server has, answering the statements template_database sends."""

    def __init__(self, *databases: str):
        self.databases, self.statements = list(databases), []

    def __call__(self, sql: str, database: str = "postgres") -> str:
        self.statements.append(sql)
        if match := re.fullmatch(r"SELECT 1 FROM pg_database WHERE datname = '(\w+)'", sql):
            return "1" if match.group(1) in self.databases else ""
        if match := re.fullmatch(r"SELECT datname .* AND datname <> '(\w+)' ORDER BY oid DESC OFFSET (\d+)", sql):
            others = [d for d in reversed(self.databases) if d.startswith(prepared.TEMPLATE_PREFIX)
                      and d != match.group(1)]  # the newest first
            return "\n".join(others[int(match.group(2)):])
        if match := re.fullmatch(r'CREATE DATABASE "(\w+)"', sql):
            self.databases.append(match.group(1))
        elif match := re.fullmatch(r'ALTER DATABASE "(\w+)" RENAME TO "(\w+)"', sql):
            if match.group(2) in self.databases:
                raise subprocess.CalledProcessError(1, "psql", stderr="already exists")
            self.databases[self.databases.index(match.group(1))] = match.group(2)
        elif match := re.fullmatch(r'DROP DATABASE IF EXISTS "(\w+)" WITH \(FORCE\)', sql):
            self.databases = [d for d in self.databases if d != match.group(1)]
        return ""


def test_the_template_is_migrated_once_per_migration_state(project):
    server, migrated = Server(), []
    name, made = prepared.template_database(server, migrated.append)
    assert made and name == prepared.TEMPLATE_PREFIX + prepared.state("migrations")
    assert server.databases == [name] and len(migrated) == 1 and migrated[0].startswith("catan_stack_building_")
    assert prepared.template_database(server, migrated.append) == (name, False) and len(migrated) == 1

    (project / "app" / "migrations" / "0002_more.py").write_text("operations = []\n")
    newer, made = prepared.template_database(server, migrated.append)
    assert made and newer != name and len(migrated) == 2 and server.databases == [name, newer]

    for number in range(3, 6):  # only the newest states are kept
        (project / "app" / "migrations" / f"000{number}_more.py").write_text("operations = []\n")
        prepared.template_database(server, migrated.append)
    assert len(server.databases) == prepared.KEEP and server.databases[-1].endswith(prepared.state("migrations"))


def test_a_migration_that_fails_leaves_no_template(project):
    server = Server()

    def broken(database: str) -> None:
        raise RuntimeError("manage.py migrate failed")

    with pytest.raises(RuntimeError):
        prepared.template_database(server, broken)
    assert server.databases == []


def test_static_files_are_collected_once_per_state_and_a_failed_collection_leaves_nothing(project, tmp_path,
                                                                                        monkeypatch):
    collected: list[Path] = []

    def collect(folder: Path) -> None:
        collected.append(folder)
        folder.mkdir()
        (folder / "staticfiles.json").write_text("{}")

    def broken(folder: Path) -> None:
        folder.mkdir()
        raise RuntimeError("collectstatic failed")

    monkeypatch.setattr(prepared, "STATIC_PREFIX", f"catan_stack_static_test_{tmp_path.name}_")
    try:
        folder, made = prepared.static_root(collect)
        assert made and (folder / "staticfiles.json").is_file() and len(collected) == 1
        assert prepared.static_root(collect) == (folder, False) and len(collected) == 1

        (project / "app" / "static" / "app" / "site.css").write_text("body { color: red }\n")
        with pytest.raises(RuntimeError):
            prepared.static_root(broken)
        assert not list(Path("/tmp").glob(f"{prepared.STATIC_PREFIX}{prepared.state('static')}*"))
    finally:
        for left in Path("/tmp").glob(f"{prepared.STATIC_PREFIX}*"):
            subprocess.run(["rm", "-rf", str(left)], check=True)


def test_the_project_modules_a_migration_imports_are_part_of_its_state(project):
    (project / "core").mkdir()
    (project / "core" / "names.py").write_text("def fold(name): return name.lower()\n")
    (project / "app" / "migrations" / "0002_fold.py").write_text("from core.names import fold\n")
    before = prepared.state("migrations")
    (project / "core" / "names.py").write_text("def fold(name): return name.casefold()\n")
    assert prepared.state("migrations") != before
