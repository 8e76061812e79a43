"""``manage.py board``: the docs/interfaces.md JSON interface, the text view, --svg and --code, exit codes."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from django.core.management import ManagementUtility, call_command
from django.core.management.base import CommandError

from engines.boards.generator import generate_board


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("board", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run as from a shell, so argument errors and CommandError turn into an exit status."""
    try:
        ManagementUtility(["manage.py", "board", *args]).execute()
        status = 0
    except SystemExit as exit_:
        status = exit_.code
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_seed_json_has_the_documented_keys() -> None:
    data = json.loads(run("--seed", "1", "--json"))
    assert set(data) == {"code", "hexes", "harbors"}
    assert len(data["hexes"]) == 19 and len(data["harbors"]) == 9
    assert data == generate_board(1).to_json()
    assert run("--seed", "1", "--json") == run("--seed", "1", "--json")


def test_code_renders_the_same_board_as_its_seed() -> None:
    code = generate_board(12).code
    assert json.loads(run("--code", code, "--json")) == generate_board(12).to_json()


def test_text_view_shows_rows_then_harbours() -> None:
    text = run("--seed", "1")
    assert text.startswith("Seed 1\nBoard ")
    assert "Harbours" in text and "Legend" in text


def test_without_seed_or_code_a_random_board_is_reproducible_from_its_seed() -> None:
    text = run()
    seed = int(text.splitlines()[0].removeprefix("Seed "))
    assert text == run("--seed", str(seed))


def test_svg_option_writes_a_drawing(tmp_path: Path) -> None:
    target = tmp_path / "board.svg"
    out = run("--seed", "4", "--json", "--svg", str(target))
    json.loads(out)
    root = ET.parse(target).getroot()
    assert sum(1 for el in root.iter() if el.get("class") == "hex") == 19


def test_bad_code_is_a_command_error_with_status_2() -> None:
    with pytest.raises(CommandError, match="malformed board code") as caught:
        run("--code", "nonsense")
    assert caught.value.returncode == 2


def test_bad_code_from_the_shell_exits_2_with_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, "--code", "W3PbM2D0W4F3M8F4MaP6W9H5H9H5PbFaW8FcP6-M333FWHPX", "--json")
    assert status == 2 and out == ""
    assert "harbour 9 has unknown kind 'X'" in err


def test_unwritable_svg_path_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run_cli(capsys, "--seed", "1", "--svg", str(tmp_path / "missing" / "board.svg"))
    assert status == 2 and "cannot write SVG" in err


def test_seed_and_code_together_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_cli(capsys, "--seed", "1", "--code", generate_board(1).code)
    assert status == 2 and "not allowed with" in err
