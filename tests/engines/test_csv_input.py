"""The one CSV reader behind the results, players, relations and roster files."""
import pytest

from engines.csv_input import InputError, read_file, read_text


def test_line_numbers_are_the_file_s_lines_even_with_multi_line_cells_and_blank_rows():
    records, problems = read_text('name,note\nAnn,"two\nlines"\n\nBob,x\n', ("name",))
    assert [(line, row["name"]) for line, row in records] == [(2, "Ann"), (5, "Bob")]
    assert problems == []


def test_headers_match_whatever_their_case_and_spacing():
    records, _problems = read_text("\ufeff Name ,Country\nAnn,AE\n", ("name",))
    assert records == [(2, {"name": "Ann", "country": "AE"})]


def test_rows_of_the_wrong_width_are_problems_unless_ragged():
    text = "name,country\nAnn\nBob,AE,extra\n"
    _records, problems = read_text(text, ("name",))
    assert [p.line for p in problems] == [2, 3]
    records, problems = read_text(text, ("name",), ragged=True)
    assert problems == [] and records == [(2, {"name": "Ann", "country": ""}), (3, {"name": "Bob", "country": "AE"})]


def test_a_missing_column_is_named_on_line_1():
    with pytest.raises(InputError) as error:
        read_text("player\nAnn\n", ("name", "email"))
    (problem,) = error.value.problems
    assert problem.line == 1 and "name, email" in problem.message


def test_files_render_file_line_and_uploads_render_line_and_column(tmp_path):
    path = tmp_path / "players.csv"
    path.write_bytes(b"player\nAnn\n" + b"\xff\xfe bad\n")
    with pytest.raises(InputError) as error:
        read_file(str(path), ("player",))
    assert error.value.lines() == [f"{path}:3: this is not UTF-8 text; save the file as UTF-8 CSV."]
    assert str(InputError(None, [error.value.problems[0]])).startswith("line 3")
