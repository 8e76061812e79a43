"""`manage.py seat` exactly as docs/interfaces.md fixes it: CSV in, CSV out, report on stderr, exit 2 on bad input."""

import csv
import io
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from engines.seating import engine, search
from tests.clocks import SlowClock

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "tests" / "data"  # copies of the worked examples of docs/rules.md / docs/interfaces.md


def write(tmp_path: Path, name: str, text: str, encoding: str = "utf-8") -> str:
    path = tmp_path / name
    path.write_text(text, encoding=encoding)
    return str(path)


def players_file(tmp_path: Path, count: int, countries: str = "") -> str:
    rows = [f"Player {i:02d}" + (f",{countries[i % len(countries)]}" if countries else "")
            for i in range(1, count + 1)]
    header = "player,country" if countries else "player"
    return write(tmp_path, "players.csv", "\n".join([header, *rows]) + "\n")


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("seat", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def fail(*args: str) -> tuple[str, str, CommandError]:
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("seat", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue(), caught.value


def rows_of(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_world_rules_example_gives_a_perfect_schedule_in_the_output_file(tmp_path):
    out_file = tmp_path / "schedule.csv"
    stdout, stderr = run(
        str(EXAMPLES / "seat-16-players.csv"), "--games", "4",
        "--relations", str(EXAMPLES / "seat-16-relations.csv"),
        "--rules", "cwc-2025", "--seed", "7", "--out", str(out_file),
    )
    assert stdout == ""
    text = out_file.read_text(encoding="utf-8")
    assert text.splitlines()[0] == "game,table,position,player"
    rows = rows_of(text)
    positions = defaultdict(set)
    tables = defaultdict(list)
    for row in rows:
        positions[row["player"]].add(row["position"])
        tables[row["game"], row["table"]].append(row)
    assert {row["game"] for row in rows} == {"1", "2", "3", "4"}
    for (_game, table), seated in tables.items():
        assert table in {"1", "2", "3", "4"} and sorted(r["position"] for r in seated) == ["1", "2", "3", "4"]
    assert all(ps == {"1", "2", "3", "4"} for ps in positions.values()) and len(positions) == 16
    for line in ("friend conflicts: 0", "repeated pairings: 0", "position repeats: 0",
                 "same-country tablemates:", "seconds:"):
        assert line in stderr
    pairs = [("Player 01", "Player 05"), ("Player 02", "Player 03")]
    for members in tables.values():
        names = {r["player"] for r in members}
        assert not any(a in names and b in names for a, b in pairs)


def test_same_seed_same_schedule_on_stdout_and_another_seed_differs(tmp_path):
    players = players_file(tmp_path, 16)
    first, _ = run(players, "--games", "3", "--seed", "4")
    again, _ = run(players, "--games", "3", "--seed", "4")
    other, _ = run(players, "--games", "3", "--seed", "5")
    assert first == again != other
    assert len(rows_of(first)) == 3 * 16


def test_three_player_tables_get_positions_1_to_3(tmp_path):
    rows = rows_of(run(players_file(tmp_path, 14), "--games", "1")[0])
    sizes = Counter(r["table"] for r in rows)
    assert sorted(sizes.values()) == [3, 3, 4, 4]  # 14 players: two tables of 4, two of 3
    for table, size in sizes.items():
        assert sorted(int(r["position"]) for r in rows if r["table"] == table) == list(range(1, size + 1))


def test_countries_count_only_under_world_rules(tmp_path):
    players = players_file(tmp_path, 16, countries="ABCD")
    _, plain = run(players, "--games", "2", "--rules", "cnc-2022")
    _, world = run(players, "--games", "2", "--rules", "cwc-2025")
    assert "(country spread not asked for)" in plain and "(distinct positions not asked for)" in plain
    assert "same-country tablemates: 0" in world and "position repeats: 0" in world


def test_a_pair_that_cannot_be_kept_apart_is_seated_and_named(tmp_path):
    players = write(tmp_path, "p.csv", "player\nAnna\nBasil\nCarla\nDina\n")
    relations = write(tmp_path, "r.csv", "player_a,player_b\nAnna,Basil\n")
    stdout, stderr = run(players, "--games", "2", "--relations", relations)
    assert len(rows_of(stdout)) == 8
    assert "friend conflicts: 2" in stderr
    for game in (1, 2):
        assert f"game {game}: Anna and Basil share a table" in stderr


def test_utf8_bom_and_non_latin_names_are_read(tmp_path):
    names = ["ليلى حداد", "كريم نصار", "Rana Tamer", "דנה לוי", "Omid", "Sara"]
    players = write(tmp_path, "p.csv", "player,country\n" + "\n".join(f"{n},ae" for n in names) + "\n",
                    encoding="utf-8-sig")
    stdout, _ = run(players, "--games", "1")
    assert sorted(r["player"] for r in rows_of(stdout)) == sorted(names)


@pytest.mark.parametrize(
    "content, line, message",
    [
        ("player\nA\n", 2, "1 player cannot be seated"),
        ("player\nA\nB\n", 3, "2 players cannot be seated"),
        ("player\nA\nB\nC\nD\nE\n", 6, "5 players cannot be seated"),
        ("name,country\nA,X\n", 1, "missing column(s) player"),
        ("player\nA\n\nB\n ,X\nC\nD\n", 5, "empty player name"),
        ("player\nA\nB\nC\nA\n", 5, "duplicate player 'A' (first on line 2)"),
        ("", 1, "the file is empty"),
    ],
)
def test_malformed_players_file_exits_2_with_file_and_line(tmp_path, content, line, message):
    players = write(tmp_path, "players.csv", content)
    stdout, stderr, error = fail(players, "--games", "2")
    assert error.returncode == 2 and stdout == ""
    assert f"{players}:{line}: {message}" in stderr


def test_relation_naming_an_unknown_player_exits_2(tmp_path):
    players = players_file(tmp_path, 8)
    relations = write(tmp_path, "rel.csv", "player_a,player_b\nPlayer 01,Player 02\nPlayer 03,Nobody\n")
    stdout, stderr, error = fail(players, "--games", "2", "--relations", relations)
    assert error.returncode == 2 and stdout == ""
    assert f"{relations}:3: unknown player 'Nobody'" in stderr


def test_relations_file_needs_both_columns(tmp_path):
    players = players_file(tmp_path, 8)
    relations = write(tmp_path, "rel.csv", "player_a\nPlayer 01\n")
    _, stderr, error = fail(players, "--games", "2", "--relations", relations)
    assert error.returncode == 2 and f"{relations}:1: missing column(s) player_b" in stderr


def test_games_below_one_and_a_missing_file_exit_2(tmp_path):
    players = players_file(tmp_path, 8)
    _, stderr, error = fail(players, "--games", "0")
    assert error.returncode == 2 and "--games: must be at least 1" in stderr
    missing = str(tmp_path / "nope.csv")
    _, stderr, error = fail(missing, "--games", "1")
    assert error.returncode == 2 and stderr.startswith(f"{missing}: cannot read the file")


def test_unknown_ruleset_is_refused(tmp_path):
    with pytest.raises(CommandError, match="invalid choice"):
        call_command("seat", players_file(tmp_path, 8), "--games", "1", "--rules", "chess")


def test_command_line_exit_status_and_streams(tmp_path):
    """The real process: 0 with CSV on stdout, 2 with nothing on stdout for bad input."""
    manage = [sys.executable, str(ROOT / "manage.py"), "seat"]
    good = subprocess.run([*manage, players_file(tmp_path, 9), "--games", "2"],
                          capture_output=True, text=True, cwd=ROOT)
    assert good.returncode == 0 and good.stdout.startswith("game,table,position,player\n")
    bad = write(tmp_path, "five.csv", "player\nA\nB\nC\nD\nE\n")
    for args in ([bad, "--games", "2"], [players_file(tmp_path, 8), "--games", "1", "--rules", "chess"]):
        result = subprocess.run([*manage, *args], capture_output=True, text=True, cwd=ROOT)
        assert result.returncode == 2 and result.stdout == "" and result.stderr.strip()


@pytest.mark.parametrize("effort", ["fast", "0", "-2", "101", "nan", ""])
def test_a_bad_effort_exits_2_naming_the_option_and_what_is_allowed(tmp_path, effort):
    stdout, stderr, error = fail(players_file(tmp_path, 8), "--games", "2", "--effort", effort)
    assert error.returncode == 2 and stdout == ""
    assert f"--effort: effort must be low, normal, high or a multiplier from 0.1 to 100, not {effort!r}" in stderr


@pytest.mark.parametrize("effort", ["low", "normal", "high", "0.5", "2"])
def test_any_effort_gives_a_schedule_and_the_same_one_twice(tmp_path, effort):
    players = players_file(tmp_path, 13)
    first, report = run(players, "--games", "3", "--effort", effort)
    assert run(players, "--games", "3", "--effort", effort)[0] == first
    assert len(rows_of(first)) == 3 * 13 and "time guard" not in report
    assert report.splitlines()[0].endswith("seed 0)" if effort == "normal" else f"seed 0, effort {effort})")


def test_without_effort_the_schedule_is_the_normal_one(tmp_path):
    players = players_file(tmp_path, 13)
    assert run(players, "--games", "2")[0] == run(players, "--games", "2", "--effort", "normal")[0]


def test_a_search_stopped_by_the_time_guard_says_so(tmp_path, monkeypatch):
    """A machine so slow that the clock jumps a second per look: the schedule comes, with the warning."""
    monkeypatch.setattr(search, "time", SlowClock())
    monkeypatch.setattr(engine, "DEFAULT_TIME_LIMIT", 2.0)
    stdout, stderr = run(players_file(tmp_path, 13), "--games", "4")
    assert len(rows_of(stdout)) == 4 * 13
    assert stderr.rstrip().endswith("stopped by the time guard: result may differ from run to run")
