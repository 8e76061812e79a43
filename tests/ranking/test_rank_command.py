"""`manage.py rank` as docs/interfaces.md fixes it: JSON and table output, and exit 2 with FILE:LINE for bad input."""
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from engines.ranking.engine import SeatResult, TableResult, rank
from ranking.management.commands.rank import write_json_array

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "tests" / "data"  # copies of the worked examples of docs/rules.md / docs/interfaces.md


def run(*args):
    """(exit status, stdout, stderr) of the command called in-process."""
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("rank", *map(str, args), stdout=out, stderr=err)
    except CommandError as e:
        return e.returncode, out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


@pytest.fixture
def csv_file(tmp_path):
    def write(text, name="results.csv"):
        path = tmp_path / name
        path.write_bytes(text.encode() if isinstance(text, str) else text)
        return path
    return write


GOOD = "game,table,player,vp\n1,1,Ann,10\n1,1,Bob,8\n1,1,Cid,7\n1,1,Dee,5\n"


def test_seed_001_example_as_json():
    code, out, err = run(EXAMPLES / "rank-seed001-example.csv", "--rules", "cnc-2022", "--json")
    rows = json.loads(out)
    assert code == 0 and err == ""
    assert [(r["rank"], r["player"], r["wins"], r["total_vp"]) for r in rows[:2]] == [
        (1, "Player A", 2, 28), (2, "Player B", 2, 28)]
    assert abs(rows[0]["vp_share"] - 28 / 98) < 1e-12 and abs(rows[1]["vp_share"] - 28 / 99) < 1e-12
    assert rows[0]["tied"] is False


def test_seed_004_example_as_json():
    rows = json.loads(run(EXAMPLES / "rank-seed004-example.csv", "--rules", "cwc-2025", "--json")[1])
    assert [r["player"] for r in rows[:2]] == ["Player A", "Player B"]
    assert abs(rows[0]["vp_percent_sum"] - 120.1772030651341) < 1e-9
    assert abs(rows[1]["vp_percent_sum"] - 118.1166503747149) < 1e-9


def test_ties_share_a_rank_and_the_next_rank_skips(csv_file):
    path = csv_file(GOOD + "1,2,Eve,10\n1,2,Fay,8\n1,2,Gus,7\n1,2,Hal,5\n")
    rows = json.loads(run(path, "--rules", "cnc-2022", "--json")[1])
    assert [(r["rank"], r["tied"]) for r in rows] == [(1, True), (1, True), (3, True), (3, True)] + [
        (5, True), (5, True), (7, True), (7, True)]


def test_the_readable_table(csv_file):
    code, out, _ = run(csv_file(GOOD + "1,2,Eve,10\n1,2,Fay,9\n1,2,Gus,7\n"), "--rules", "cnc-2022")
    table = out.splitlines()
    assert code == 0 and table[0].split() == ["Rank", "Player", "Games", "Wins", "Total", "VP", "VP", "share"]
    assert table[2].split() == ["1", "Ann", "1", "1", "10", "33.3333", "%"]
    assert table[3].split() == ["2", "Eve", "1", "1", "10", "28.5714", "%"]  # 10 / (26 + 9): 3 players
    assert len({len(row) for row in table}) == 1 and "=" not in out


def test_the_readable_table_marks_ties(csv_file):
    _, out, _ = run(csv_file(GOOD + "1,2,Eve,10\n1,2,Fay,8\n1,2,Gus,7\n1,2,Hal,5\n"), "--rules", "cwc-2025")
    assert out.splitlines()[2].split()[:2] == ["1=", "Ann"] and "still equal after every tiebreaker" in out
    assert "VP % sum" in out and "2nd places" in out and "3rd places" in out


def test_a_bom_and_crlf_line_ends_are_read(csv_file):
    path = csv_file(("\ufeff" + GOOD).replace("\n", "\r\n"))
    rows = json.loads(run(path, "--rules", "cnc-2022", "--json")[1])
    assert rows[0]["player"] == "Ann" and rows[0]["total_vp"] == 10


def test_a_winner_column_marks_the_winner_among_two_with_ten(csv_file):
    path = csv_file("game,table,player,vp,winner\n1,1,Ann,10,0\n1,1,Bob,11,1\n1,1,Cid,7,0\n")
    rows = json.loads(run(path, "--rules", "cnc-2022", "--json")[1])
    assert [(r["player"], r["wins"], r["total_vp"]) for r in rows] == [
        ("Bob", 1, 10), ("Ann", 0, 10), ("Cid", 0, 7)]


def test_lord_of_catan_with_minutes(csv_file):
    path = csv_file("game,table,player,vp,minutes\n1,1,Ann,10,62\n1,1,Bob,9,62\n1,1,Cid,7,62\n1,1,Dee,5,62\n"
                    "1,2,Eve,10,40\n1,2,Fay,3,40\n1,2,Gus,3,40\n1,2,Hal,3,40\n")
    rows = json.loads(run(path, "--rules", "lord-of-catan", "--json")[1])
    assert [r["player"] for r in rows[:3]] == ["Ann", "Eve", "Bob"]
    assert rows[0]["tempo"] == pytest.approx(10 * 31 / 62) and rows[1]["tempo"] == pytest.approx(10 * 19 / 40)


def test_penalties_come_off_total_vp(csv_file):
    results = csv_file(GOOD + "1,2,Eve,10\n1,2,Fay,9\n1,2,Gus,7\n")
    penalties = csv_file("player,vp,reason\nAnn,1,late\nEve,1,late\nEve,2,cheating\n", name="penalties.csv")
    out = run(results, "--rules", "cnc-2022", "--penalties", penalties, "--json")[1]
    rows = {r["player"]: r for r in json.loads(out)}
    assert (rows["Ann"]["total_vp"], rows["Eve"]["total_vp"]) == (9, 7)
    assert rows["Ann"]["vp_share"] == pytest.approx(10 / 30)
    assert (rows["Ann"]["rank"], rows["Eve"]["rank"]) == (1, 2)


H = "game,table,player,vp"
W, M = H + ",winner", H + ",minutes"


def lines(header, *rows):
    return "\n".join([header, *rows]) + "\n"


BAD_RESULTS = [
    (lines("game,table,player", "1,1,Ann"), 1, "missing column(s) vp"),
    (lines(H, "1,1,Ann,10", "1,1,Bob,eight", "1,1,Cid,7"), 3,
     "game 1, table 1: Bob: VP must be a whole number from 0 to 12, not 'eight'"),
    (lines(H, "1,1,Ann,10", "1,1,Bob,7.5", "1,1,Cid,7"), 3, "not '7.5'"),
    (lines(H, "1,1,Ann,10", "1,1,Bob,8", "1,1,Cid,13"), 4,
     "Cid: VP must be a whole number from 0 to 12, not 13."),
    (lines(H, "1,1,Ann,10", "1,1,Bob,-1", "1,1,Cid,3"), 3, "not -1"),
    (lines(H, "1,1,Ann,9", "1,1,Bob,8", "1,1,Cid,7"), 2,
     "game 1, table 1: No winner: nobody has 10 or more VP."),
    (lines(W, "1,1,Ann,10,0", "1,1,Bob,8,0", "1,1,Cid,7,0"), 2, "No winner is marked"),
    (lines(W, "1,1,Ann,10,1", "1,1,Bob,10,1", "1,1,Cid,7,0"), 2, "Ann and Bob are marked as winners"),
    (lines(H, "1,1,Ann,10", "1,1,Bob,10", "1,1,Cid,7"), 2, "add a winner column"),
    (lines(W, "1,1,Ann,10,0", "1,1,Bob,9,1", "1,1,Cid,7,0"), 3, "Bob won with 9 VP"),
    (lines(W, "1,1,Ann,10,1", "1,1,Bob,9,yes", "1,1,Cid,7,0"), 3, "winner must be 1"),
    (lines(H, "1,1,Ann,10", "1,1,Bob,8"), 2, "3 or 4 players; this one has 2"),
    (lines(H, "1,1,Ann,10", "1,1,Bob,8", "1,1,Cid,7", "1,1,Dee,5", "1,1,Eve,4"), 2, "this one has 5"),
    (lines(H, "1,1,Ann,10", "1,1,Bob,8", "1,1,Ann,7"), 4, "Ann is entered twice at this table"),
    (lines(H, "1,1,Ann,10", "1,1,Bob,8", "1,1,Cid,7", "1,2,Dee,10", "1,2,Bob,8", "1,2,Eve,7"), 6,
     "game 1, table 2: Bob is also seated at table 1 in this game"),
    (lines(H, "1,1,Ann,10", "one,1,Bob,8", "1,1,Cid,7"), 3,
     "game must be a positive whole number, not 'one'."),
    (lines(H, "1,0,Ann,10"), 2, "table must be a positive whole number, not 0"),
    (lines(H, "1,1,Ann,10", "1,1,Bob", "1,1,Cid,7"), 3, "3 fields, but the header has 4"),
    (lines(H, "1,1,Ann,10", "1,1,,8", "1,1,Cid,7"), 3, "A player's name is missing"),
    ("", 1, "the file is empty"),
    (lines(H), 1, "no results below the header"),
    (lines(H + ",vp", "1,1,Ann,10,10"), 1, "vp appear more than once"),
    (lines(M, "1,1,Ann,10,50", "1,1,Bob,8,55", "1,1,Cid,7,50"), 3, "minutes is 55 here but 50 on line 2"),
]


@pytest.mark.parametrize(("text", "line", "message"), BAD_RESULTS)
def test_bad_results_exit_2_naming_file_and_line(csv_file, text, line, message):
    path = csv_file(text)
    code, out, err = run(path, "--rules", "cnc-2022", "--json")
    assert (code, out) == (2, "")
    assert f"{path}:{line}: " in err and message in err, err


@pytest.mark.parametrize(("text", "line", "message"), [
    (lines(H, "1,1,Ann,10", "1,1,Bob,8", "1,1,Cid,7"), 2, "minutes is required by lord-of-catan"),
    (lines(M, "1,1,Ann,10,", "1,1,Bob,8,", "1,1,Cid,7,"), 2, "minutes is required"),
    (lines(M, "1,1,Ann,10,50", "1,1,Bob,8,", "1,1,Cid,7,50"), 3, "minutes is empty here but 50 on line 2"),
    (lines(M, "1,1,Ann,10,0", "1,1,Bob,8,0", "1,1,Cid,7,0"), 2, "positive whole number of minutes"),
    (lines(M, "1,1,Ann,10,1h", "1,1,Bob,8,1h", "1,1,Cid,7,1h"), 2, "not '1h'"),
])
def test_lord_of_catan_needs_one_duration_per_table(csv_file, text, line, message):
    path = csv_file(text)
    code, out, err = run(path, "--rules", "lord-of-catan")
    assert (code, out) == (2, "")
    assert f"{path}:{line}: " in err and message in err, err


def test_every_problem_is_reported_in_line_order(csv_file):
    path = csv_file(lines(H, "1,1,Ann,10", "1,1,Bob,99", "1,1,Cid,7",
                          "2,1,Ann,10", "2,1,Bob,10", "2,1,Cid,7"))
    _, _, err = run(path, "--rules", "cnc-2022")
    problems = [line for line in err.splitlines() if line.startswith(f"{path}:")]
    assert [p.split(":")[1] for p in problems] == ["3", "5"]


def test_not_utf8_and_missing_files(csv_file, tmp_path):
    latin = csv_file("game,table,player,vp\n1,1,Zoë,10\n".encode("latin-1"))
    code, _, err = run(latin, "--rules", "cnc-2022")
    assert code == 2 and f"{latin}:2: " in err and "UTF-8" in err
    code, _, err = run(tmp_path / "nope.csv", "--rules", "cnc-2022")
    assert code == 2 and f"{tmp_path / 'nope.csv'}: cannot read the file" in err


def test_unknown_ruleset(csv_file):
    code, out, err = run(csv_file(GOOD), "--rules", "chess")
    assert (code, out) == (2, "") and "unknown ruleset 'chess'" in err and "cnc-2022" in err


@pytest.mark.parametrize(("text", "line", "message"), [
    ("player,vp\nZed,1\n", 2, "penalty for 'Zed', who has no result"),
    ("player,vp\nAnn,0\n", 2, "Ann: A VP deduction must be a positive whole number, not 0"),
    ("player,vp\nAnn,1\nBob,-2\n", 3, "not -2"),
    ("player,vp\nAnn,one\n", 2, "not 'one'"),
    ("player,vp\nAnn,1.5\n", 2, "not '1.5'"),
    ("name,vp\nAnn,1\n", 1, "missing column(s) player"),
    ("", 1, "the file is empty"),
])
def test_bad_penalties_exit_2_naming_file_and_line(csv_file, text, line, message):
    penalties = csv_file(text, name="penalties.csv")
    code, out, err = run(csv_file(GOOD), "--rules", "cnc-2022", "--penalties", penalties)
    assert (code, out) == (2, "")
    assert f"{penalties}:{line}: " in err and message in err, err


def test_the_real_command_line_exits_2_with_the_problem_on_stderr_only(csv_file):
    path = csv_file(lines(H, "1,1,A,10", "1,1,B,10", "1,1,C,5", "1,1,D,4"))
    r = subprocess.run([sys.executable, "manage.py", "rank", str(path), "--rules", "cnc-2022", "--json"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr.startswith(f"{path}:2: game 1, table 1: A and B have 10 or more VP each")


def test_the_real_command_line_prints_json(csv_file):
    path = csv_file(GOOD)
    r = subprocess.run([sys.executable, "manage.py", "rank", str(path), "--rules", "cwc-2025", "--json"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert r.returncode == 0 and json.loads(r.stdout)[0]["player"] == "Ann"


def test_rows_of_a_table_may_be_scattered_over_the_file(csv_file):
    """The reader groups rows by (game, table) wherever they are, as it did when it held every row."""
    scattered = csv_file(lines(H, "1,1,Ann,10", "1,2,Eve,10", "2,1,Ann,8", "1,1,Bob,8", "1,2,Fay,9",
                               "2,1,Eve,10", "1,1,Cid,7", "1,2,Gus,7", "2,1,Bob,5", "2,1,Fay,4"))
    grouped = csv_file(lines(H, "1,1,Ann,10", "1,1,Bob,8", "1,1,Cid,7", "1,2,Eve,10", "1,2,Fay,9", "1,2,Gus,7",
                             "2,1,Ann,8", "2,1,Eve,10", "2,1,Bob,5", "2,1,Fay,4"), name="grouped.csv")
    assert run(scattered, "--rules", "cwc-2025", "--json") == run(grouped, "--rules", "cwc-2025", "--json")
    twice = csv_file(lines(H, "1,1,Ann,10", "1,2,Eve,10", "1,1,Bob,8", "1,2,Bob,9", "1,1,Cid,7", "1,2,Gus,7"))
    code, out, err = run(twice, "--rules", "cnc-2022")
    assert (code, out) == (2, "")
    assert f"{twice}:5: game 1, table 2: Bob is also seated at table 1 in this game" in err


@pytest.mark.parametrize("count", [0, 1, 3])
def test_the_json_array_is_written_exactly_as_one_dumps_would(count):
    tables = [TableResult(1, 1, (SeatResult('Zoë "Z"', 10, True), SeatResult("ليلى", 7, False),
                                 SeatResult("B\\n", 3, False)))]
    standings = rank(tables, "cnc-2022")[:count]
    pieces: list[str] = []
    write_json_array(standings, pieces.append)
    assert "".join(pieces) == json.dumps([s.as_json() for s in standings], indent=2)
