"""The `rank` and `seat` commands fed malformed files (issue 9, the harness): never a crash.

Whatever bytes a file holds, the command either succeeds or exits with status 2, printing on stderr a
message that names the file (and, where it can, the line); never an uncaught exception and never a
half-written output. Hypothesis runs derandomized, so CI sees the same examples every time.
"""
import csv
import io
import json
import math

import pytest
from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.fuzz.scale import SCALE

FUZZ = settings(max_examples=40 * SCALE, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

HUGE = "9" * 5000  # more digits than int() accepts by default


def run(command, *args):
    """(exit status, stdout, stderr) of a command called in-process."""
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command(command, *map(str, args), stdout=out, stderr=err)
    except CommandError as error:
        return error.returncode, out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def names_the_file(err: str, path) -> bool:
    """Every line of the message starts with the file's name (FILE:LINE: problem, or FILE: problem)."""
    lines = [line for line in err.splitlines() if line.strip()]
    return bool(lines) and all(line.startswith(f"{path}:") for line in lines)


cell = st.one_of(
    st.sampled_from(["", "0", "1", "3", "4", "5", "7", "8", "10", "12", "13", "-1", "-0", "NaN", "nan", "inf",
                     "1e309", "1.5", "1_0", " 10 ", "１０", HUGE, "-" + HUGE, "0x10", "=1+1", "Ann", "Bob", "Cid",
                     "Dee", "Eve", "\ufeffAnn", "a,b", '"quoted"', "x" * 5000]),
    st.text(max_size=12),
    st.integers(min_value=-10**30, max_value=10**30).map(str),
)
row = st.lists(cell, min_size=0, max_size=7)
header = st.one_of(
    st.just(["game", "table", "player", "vp"]),
    st.just(["game", "table", "player", "vp", "winner"]),
    st.just(["game", "table", "player", "vp", "minutes"]),
    st.just(["GAME", " Table ", "player", "VP", "winner", "minutes", "extra"]),
    st.permutations(["game", "table", "player", "vp", "winner"]).map(list),
    st.lists(st.sampled_from(["game", "table", "player", "vp", "winner", "minutes", "vp", "", "x"]), max_size=7),
)


def _csv(rows) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue()


# Files that are CSV-shaped (to get past the header) or just bytes, in several encodings and line endings.
structured = st.builds(lambda h, rows: _csv([h, *rows]), header, st.lists(row, max_size=14))
results_bytes = st.one_of(
    st.binary(max_size=300),
    structured.map(lambda text: text.encode("utf-8")),
    structured.map(lambda text: "\ufeff".encode() + text.encode("utf-8")),
    structured.map(lambda text: text.encode("utf-16")),
    structured.map(lambda text: text.encode("latin-1", "replace")),
    structured.map(lambda text: text.replace("\n", "\r\n").encode()),
    structured.map(lambda text: text.replace("\n", "\r").encode()),
    structured.map(lambda text: (text + '"unterminated,' + "y" * 200).encode()),
    st.just(b""), st.just(b"\xef\xbb\xbf"), st.just(b"\n\n\n"), st.just(b"game,table,player,vp\n"),
    st.just(("game,table,player,vp\n1,1," + "z" * 200_000 + ",10\n").encode()),  # longer than csv allows
    st.just(b"game,table,player,vp\n1,1,Ann\x00,10\n"),
)


@pytest.fixture
def write(tmp_path):
    def write(data: bytes, name: str = "results.csv"):
        path = tmp_path / name
        path.write_bytes(data)
        return path
    return write


def check_rank(path, *extra):
    code, out, err = run("rank", path, *extra)
    if code == 0 and "--json" not in extra:
        assert out.splitlines()[0].startswith("Rank"), out
    elif code == 0:
        rows = json.loads(out)
        assert all(isinstance(r["rank"], int) and r["rank"] >= 1 for r in rows)
        assert all(math.isfinite(v) for r in rows for v in r.values() if isinstance(v, float))
    else:
        assert code == 2, (code, err)
        assert out == "", "nothing ranked, nothing printed"
        assert names_the_file(err, path) or names_the_file(err, extra[-1] if extra else path), err
    return code, err


@pytest.mark.parametrize("rules", ["cnc-2022", "cwc-2025", "lord-of-catan"])
@FUZZ
@given(data=results_bytes)
@example(data=b"game,table,player,vp,minutes\n1,1,A,10," + HUGE.encode() + b"\n1,1,B,8," + HUGE.encode()
         + b"\n1,1,C,7," + HUGE.encode() + b"\n")
@example(data=b"game,table,player,vp,minutes\n1,1,A,10,99999999999999999999\n1,1,B,8,99999999999999999999\n"
         b"1,1,C,7,99999999999999999999\n")
@example(data=("game,table,player,vp\n" + HUGE + ",1,A,10\n" + HUGE + ",1,B,8\n" + HUGE + ",1,C,7\n").encode())
@example(data=b"game,table,player,vp,minutes\n1,1,A,10,0\n1,1,B,8,0\n1,1,C,7,0\n")
@example(data=b"game,table,player,vp,minutes\n1,1,A,10,-5\n1,1,B,8,-5\n1,1,C,7,-5\n")
def test_rank_never_crashes_on_a_malformed_results_file(write, rules, data):
    check_rank(write(data), "--rules", rules, "--json")
    check_rank(write(data), "--rules", rules)  # the readable table too


GOOD_RESULTS = b"game,table,player,vp\n1,1,Ann,10\n1,1,Bob,8\n1,1,Cid,7\n1,1,Dee,5\n"
penalty_bytes = st.one_of(
    st.binary(max_size=200),
    st.builds(lambda h, rows: _csv([h, *rows]).encode(),
              st.one_of(st.just(["player", "vp"]), st.lists(st.sampled_from(["player", "vp", "x", ""]), max_size=4)),
              st.lists(st.lists(cell, max_size=4), max_size=8)),
)


@FUZZ
@given(data=penalty_bytes)
@example(data=b"player,vp\nAnn," + HUGE.encode() + b"\n")
@example(data=b"player,vp\nAnn,99999999999999999999999\nAnn,99999999999999999999999\n")
def test_rank_never_crashes_on_a_malformed_penalties_file(write, data):
    results = write(GOOD_RESULTS)
    penalties = write(data, "penalties.csv")
    code, out, err = run("rank", results, "--rules", "cnc-2022", "--penalties", penalties, "--json")
    if code:
        assert code == 2 and out == ""
        assert names_the_file(err, penalties), err
    else:
        assert all(math.isfinite(r["total_vp"]) for r in json.loads(out))


players_bytes = st.one_of(
    st.binary(max_size=200),
    st.builds(lambda h, rows: _csv([h, *rows]).encode(),
              st.one_of(st.just(["player"]), st.just(["player", "country"]), st.just(["Player", "Country", "x"]),
                        st.lists(st.sampled_from(["player", "country", "", "x", "player"]), max_size=4)),
              st.lists(st.lists(cell, min_size=1, max_size=3), max_size=10)),
    st.builds(lambda names: ("player\n" + "\n".join(names) + "\n").encode(),
              st.lists(st.text(st.characters(blacklist_categories=["Cs"]), min_size=1, max_size=30), max_size=10)),
)


def check_seat(path, *extra):
    code, out, err = run("seat", path, *extra)
    if code == 0:
        lines = out.splitlines()
        assert lines[0] == "game,table,position,player"
    else:
        assert code == 2, (code, err)
        assert out == ""
        assert err.strip(), "a refusal says why"
        named = [p for p in (path, *extra) if str(p).endswith(".csv")]
        assert any(names_the_file(err, p) for p in named) or err.startswith("--games"), err
    return code, err


@FUZZ
@given(data=players_bytes, games=st.integers(min_value=-2, max_value=3))
@example(data=b"player\nAnn\nAnn\nAnn\nBob\n", games=1)
@example(data=b"player,country\nAnn,ZZZZ\nBob,\nCid,\xc3\xa9\n", games=1)
def test_seat_never_crashes_on_a_malformed_players_file(write, data, games):
    check_seat(write(data, "players.csv"), "--games", games, "--seed", 1)


relations_bytes = st.one_of(
    st.binary(max_size=200),
    st.builds(lambda h, rows: _csv([h, *rows]).encode(),
              st.one_of(st.just(["player_a", "player_b"]), st.lists(st.sampled_from(["player_a", "player_b", "x"]),
                                                                    max_size=3)),
              st.lists(st.lists(st.sampled_from(["P1", "P2", "P3", "Nobody", "", "P1 "]), max_size=3), max_size=6)),
)


@FUZZ
@given(data=relations_bytes)
@example(data=b"player_a,player_b\nP1,P1\n")
def test_seat_never_crashes_on_a_malformed_relations_file(write, data):
    players = write(b"player\n" + b"\n".join(f"P{i}".encode() for i in range(1, 9)) + b"\n", "players.csv")
    check_seat(players, "--games", 1, "--relations", write(data, "relations.csv"))


def test_only_plain_digits_are_numbers(write):
    """int() reads "1_0" as 10 and "１" as 1: a file saying so is refused, naming the line (found by fuzzing)."""
    path = write("game,table,player,vp\n1,1,Ann,1_0\n1,1,Bob,8\n1,1,Cid,7\n１,1,Dee,5\n".encode())
    code, err = check_rank(path, "--rules", "cnc-2022", "--json")
    assert code == 2
    assert f"{path}:2: game 1, table 1: Ann: VP must be a whole number from 0 to 12, not '1_0'." in err
    assert f"{path}:5: game must be a positive whole number, not '１'." in err


def test_a_game_lasts_at_most_a_day(write):
    """A duration of 10^23 minutes was accepted and ranked by tempo (found by fuzzing)."""
    rows = "".join(f"1,1,{p},{vp},99999999999999999\n" for p, vp in (("Ann", 10), ("Bob", 8), ("Cid", 7)))
    path = write(("game,table,player,vp,minutes\n" + rows).encode())
    code, err = check_rank(path, "--rules", "lord-of-catan", "--json")
    assert code == 2
    assert f"{path}:2: game 1, table 1: The game duration must be at most 1440 minutes, not 99999999999999999." in err


@pytest.mark.parametrize("games", ["101", "99999999999"])
def test_seat_refuses_a_number_of_games_no_stage_plays(write, games):
    """--games 99999999999 ran until it was killed (found by fuzzing); now: exit 2, saying the maximum."""
    code, out, err = run("seat", write(b"player\nA\nB\nC\nD\n", "players.csv"), "--games", games)
    assert (code, out) == (2, "")
    assert err.strip() == f"--games: must be at most 100, not {games}"


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=False), st.text(max_size=8)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=25)
tournament_objects = st.lists(st.fixed_dictionaries({
    "model": st.sampled_from(["auth.user", "championships.country", "championships.championship",
                              "championships.tournament", "championships.player", "audit.auditentry", "x.y"]),
    "pk": st.one_of(st.integers(0, 3), json_values), "fields": st.one_of(st.dictionaries(st.sampled_from(
        ["name", "slug", "username", "code", "email", "kind", "tournament", "user", "after"]), json_values,
        max_size=4), json_values)}), max_size=5)
import_bytes = st.one_of(
    st.binary(max_size=300),
    json_values.map(lambda value: json.dumps(value).encode()),
    st.builds(lambda slug, objects: json.dumps({"format": "catan-tournament", "version": 1, "tournament": slug,
                                                "objects": objects}).encode(),
              st.one_of(st.just("fz"), json_values), tournament_objects),
    st.integers(1, 200_000).map(lambda n: ("[" * n + "]" * n).encode()),
    st.integers(1, 200_000).map(lambda n: ('{"a": ' * n + "1" + "}" * n).encode()),
)


@pytest.mark.django_db
@FUZZ
@given(data=import_bytes)
@example(data=("[" * 100_000 + "]" * 100_000).encode())
@example(data=b'{"format": "catan-tournament", "version": 1, "tournament": "fz", "objects": [' + b"[" * 50_000 + b"]")
def test_import_tournament_never_crashes_on_a_malformed_file(write, data):
    """Whatever a file holds, `import_tournament` imports it or exits 2 naming the file (100,000 nested brackets
    ended in a RecursionError traceback)."""
    path = write(data, "tournament.json")
    try:
        call_command("import_tournament", str(path), stdout=io.StringIO(), stderr=io.StringIO())
    except CommandError as error:
        assert error.returncode == 2 and str(error).startswith(f"{path}: "), str(error)
