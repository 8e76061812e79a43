"""Table downloads: a 3,000-player standings table (ten columns, Arabic names, numbers as the CSV writes them) as
CSV and as an Excel workbook, the same rows through the same functions the views call.

Run from anywhere: `python benchmarks/bench_exports.py`. Prints the best of three runs of each, their ratio (the
figure to compare between machines) and the workbook's size and peak Python memory (write-only: rows go to a
temporary file, so it grows with one row, not the table). Fails (exit 1) when the workbook takes more than
CEILING_S: a public workbook is written once per results version, but an organizer's is written on every click
and a worker is killed at 30 s. openpyxl writes XML through lxml when it is installed (several times faster).
"""
import csv
import io
import os
import sys
import time
import tracemalloc

from django_setup import setup

setup("exports", database=os.environ.get("DATABASE_URL", "sqlite://:memory:"))

from openpyxl.xml import LXML  # noqa: E402

from core.csv_export import safe_cell  # noqa: E402
from core.table_export import xlsx_bytes  # noqa: E402

ROWS, RUNS, CEILING_S = 3_000, 3, 10.0
HEADER = ["rank", "player", "country", "games", "wins", "total_vp", "vp_share", "opponents_vp", "rating", "tied"]


def rows():
    for i in range(ROWS):
        yield [i + 1, f"فاطمة الزهراء بن عبد الله {i}", "AE", 7, i % 4, 40 + i % 20, f"{(i % 97) / 97:.4f}",
               f"{12 + i % 9}.50", f"{-i / 7:.6f}", "true" if i % 5 == 0 else "false"]


def as_csv() -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(HEADER)
    writer.writerows([safe_cell(cell) for cell in row] for row in rows())
    return out.getvalue().encode()


def as_xlsx() -> bytes:
    return xlsx_bytes("standings", HEADER, rows(), rtl=True)


def best(make) -> tuple[float, int]:
    times, size = [], 0
    for _ in range(RUNS):
        start = time.perf_counter()
        size = len(make())
        times.append(time.perf_counter() - start)
    return min(times), size


def main() -> int:
    csv_s, csv_size = best(as_csv)
    xlsx_s, xlsx_size = best(as_xlsx)
    tracemalloc.start()
    as_xlsx()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"exports, {ROWS:,} rows x {len(HEADER)} columns: CSV {csv_s * 1000:,.0f} ms ({csv_size // 1024} KB), "
          f"XLSX {xlsx_s * 1000:,.0f} ms ({xlsx_size // 1024} KB, peak {peak // 1024:,} KB of Python memory; "
          f"lxml {'on' if LXML else 'off'}); ratio {xlsx_s / csv_s:.0f}; ceiling {CEILING_S:.0f} s")
    return 0 if xlsx_s <= CEILING_S else 1


if __name__ == "__main__":
    sys.exit(main())
