"""After a run: what the referees entered against what the database holds, and the standings against `rank`.

`python -m reliability.verify RUN.json` with the app's environment. RUN.json holds the games as seeded,
the VP each referee entered by table id, and the standings each tournament's public API served at the
end. Prints one JSON line: the problems found by check, and the lost or duplicated results by game.
"""
import csv
import json
import sys
import tempfile
from collections import Counter, defaultdict
from io import StringIO

import django

django.setup()

from django.core.management import call_command  # noqa: E402

from audit.models import AuditEntry  # noqa: E402
from championships.models import Tournament  # noqa: E402
from ranking.standings import compute_standings  # noqa: E402
from results.models import RecordSheet, Score, SheetRevision, Signature  # noqa: E402
from scheduling.models import Game  # noqa: E402


def check_results(games: list[dict], entered: dict[str, list[int]]) -> tuple[dict[str, list[str]], dict[int, int]]:
    """Each table's result stored exactly once, as entered; each game finished; each change audited once."""
    problems: dict[str, list[str]] = defaultdict(list)
    lost: dict[int, int] = defaultdict(int)
    tables = [(game, table) for game in games for table in game["tables"]]
    sheets = {s.table_id: s for s in RecordSheet.objects.filter(table_id__in=[t["id"] for _, t in tables])}
    scores = defaultdict(list)
    for score in Score.objects.filter(sheet__in=sheets.values()).select_related("seat"):
        scores[score.sheet_id].append(score)
    revisions = Counter(SheetRevision.objects.filter(sheet__in=sheets.values()).values_list("sheet_id", "kind"))
    signatures = Counter(Signature.objects.filter(sheet__in=sheets.values()).values_list("sheet_id", "entry_id"))
    audit = Counter((a.object_id, a.action, (a.after or {}).get("entry")) for a in AuditEntry.objects.filter(
        object_type="recordsheet", object_id__in=[s.pk for s in sheets.values()]))
    for game, table in tables:
        where = f"game {game['number']} of {game['tournament']}, table {table['number']}"
        sheet = sheets.get(table["id"])
        if sheet is None or sheet.status != RecordSheet.Status.SIGNED_OFF:
            problems["every result stored"].append(f"{where}: not signed off ({sheet and sheet.status})")
            lost[game["id"]] += 1
            continue
        expected = {seat["entry"]: vp for seat, vp in zip(table["seats"], entered[str(table["id"])])}
        stored = Counter(s.seat.entry_id for s in scores[sheet.pk])
        if {s.seat.entry_id: s.vp for s in scores[sheet.pk]} != expected or max(stored.values()) != 1:
            stored_vps = [(s.seat.entry_id, s.vp) for s in scores[sheet.pk]]
            problems["every result stored"].append(f"{where}: stored {stored_vps}, entered {expected}")
            lost[game["id"]] += 1
        if sum(s.winner for s in scores[sheet.pk]) != 1:
            problems["exactly once"].append(f"{where}: {sum(s.winner for s in scores[sheet.pk])} winners")
        for kind in (SheetRevision.Kind.ENTERED, SheetRevision.Kind.SIGNED_OFF):
            if revisions[(sheet.pk, kind)] != 1:
                problems["exactly once"].append(f"{where}: {revisions[(sheet.pk, kind)]} '{kind}' revisions")
        for entry in expected:
            if signatures[(sheet.pk, entry)] != 1:
                problems["exactly once"].append(f"{where}: {signatures[(sheet.pk, entry)]} signatures of entry {entry}")
            if (times := audit[(sheet.pk, "sheet.signature.tap", entry)]) != 1:
                problems["audit trail once"].append(f"{where}: signature of entry {entry} audited {times} times")
        for action in ("sheet.entered", "sheet.signed_off"):
            if (times := audit[(sheet.pk, action, None)]) != 1:
                problems["audit trail once"].append(f"{where}: {action} audited {times} times")
    for unfinished in Game.objects.filter(pk__in=[g["id"] for g in games]).exclude(status=Game.Status.FINISHED):
        problems["every game finished"].append(
            f"game {unfinished.number} of {unfinished.tournament.slug} is {unfinished.status}")
    return problems, lost


GAME_MINUTES = 85
"""The referees enter every table as played from 10:00 to 11:25 (clients.play_table)."""


def rank_command(games: list[dict], entered: dict[str, list[int]], ruleset: str) -> list[dict]:
    """`manage.py rank results.csv --rules RULESET --json` on what the referees entered."""
    with tempfile.NamedTemporaryFile("w", suffix=".csv", newline="", delete=False) as file:
        writer = csv.writer(file)
        writer.writerow(["game", "table", "player", "vp", "minutes"])
        for game in games:
            for table in game["tables"]:
                for seat, vp in zip(table["seats"], entered[str(table["id"])]):
                    writer.writerow([game["number"], table["number"], seat["player"], vp, GAME_MINUTES])
    out = StringIO()
    call_command("rank", file.name, rules=ruleset, json=True, stdout=out)
    return json.loads(out.getvalue())


def compare(expected: list[dict], rows: list[dict]) -> list[str]:
    """The `rank --json` objects, in order, each field equal (the app's rows add ids and the country)."""
    if len(expected) != len(rows):
        return [f"{len(rows)} rows instead of {len(expected)}"]
    return [f"place {i + 1}: {[ (k, row.get(k)) for k in want if row.get(k) != want[k]]} instead of "
            f"{[(k, want[k]) for k in want if row.get(k) != want[k]]}"
            for i, (want, row) in enumerate(zip(expected, rows)) if any(row.get(k) != want[k] for k in want)]


def main() -> None:
    with open(sys.argv[1]) as file:
        run = json.load(file)
    problems, lost = check_results(run["games"], run["entered"])
    for slug in run["tournaments"]:
        games = [g for g in run["games"] if g["tournament"] == slug]
        expected = rank_command(games, run["entered"], run["ruleset"])
        from_database = compute_standings(Tournament.objects.get(slug=slug))
        for where, rows in (("computed from the database", from_database),
                            ("served by /api/…/standings/", run["api_standings"].get(slug, []))):
            for problem in compare(expected, rows)[:5]:
                problems["standings equal rank"].append(f"{slug}, {where}: {problem}")
    print(json.dumps({"problems": problems, "lost_by_game": lost,
                      "tables": sum(len(g["tables"]) for g in run["games"])}))


if __name__ == "__main__":
    main()
