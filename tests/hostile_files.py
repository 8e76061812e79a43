"""Hostile registration lists, built byte by byte: what an attacker uploads, for the upload tests and the fuzzers.

A workbook is written here by hand (not by openpyxl) so it can lie: one row of hundreds of thousands of cells,
a `dimension` that claims fewer rows than the sheet has, sizes in the zip's directory that are not the real ones.
"""
import functools
import io
import struct
import zipfile

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
DOC = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PARTS = {
    "[Content_Types].xml": '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/'
                           'package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.'
                           'openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType='
                           '"application/xml"/></Types>',
    "_rels/.rels": f'<?xml version="1.0"?><Relationships xmlns="{RELS}"><Relationship Id="rId1" '
                   f'Type="{DOC}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    "xl/workbook.xml": f'<?xml version="1.0"?><workbook xmlns="{MAIN}" xmlns:r="{DOC}"><sheets><sheet name="List" '
                       f'sheetId="1" r:id="rId1"/></sheets></workbook>',
    "xl/_rels/workbook.xml.rels": f'<?xml version="1.0"?><Relationships xmlns="{RELS}"><Relationship Id="rId1" '
                                  f'Type="{DOC}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
}
SHEET = "xl/worksheets/sheet1.xml"


def cell(text: str, reference: str = "") -> bytes:
    where = f' r="{reference}"' if reference else ""
    return f'<c{where} t="inlineStr"><is><t>{text}</t></is></c>'.encode()


def workbook(rows: bytes, *, dimension: str = "") -> bytes:
    """A one-sheet workbook whose sheetData is `rows` (XML of <row> elements), squeezed hard."""
    claimed = f'<dimension ref="{dimension}"/>'.encode() if dimension else b""
    sheet = (f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{MAIN}">'.encode() + claimed
             + b"<sheetData>" + rows + b"</sheetData></worksheet>")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, text in PARTS.items():
            archive.writestr(name, text)
        archive.writestr(SHEET, sheet)
    return out.getvalue()


def row(number: int, cells: bytes) -> bytes:
    return f'<row r="{number}">'.encode() + cells + b"</row>"


@functools.cache
def one_huge_row(cells: int = 900_000) -> bytes:
    """Issue 22's file: a header, then one row of `cells` cells (900,000: 101 KB packed, 34 MB of XML)."""
    return workbook(row(1, cell("name") + cell("x") * cells))


def lying_dimension(last_row: int = 25_000) -> bytes:
    """A sheet that claims to end at row 2 (its `dimension`) and holds a player in row `last_row`."""
    return workbook(row(1, cell("name")) + row(2, cell("Ann Lee")) + row(last_row, cell("Far Away")),
                    dimension="A1:A2")


def declared_size(data: bytes, member: str, size: int) -> bytes:
    """The workbook with the uncompressed size of `member` in the zip's central directory replaced by `size`."""
    name = member.encode()
    at = struct.unpack_from("<I", data, data.rindex(b"PK\x05\x06") + 16)[0]  # where the central directory starts
    while True:
        name_length = struct.unpack_from("<H", data, at + 28)[0]
        extra, comment = struct.unpack_from("<HH", data, at + 30)
        if data[at + 46:at + 46 + name_length] == name:
            return data[:at + 24] + struct.pack("<I", size) + data[at + 28:]
        at += 46 + name_length + extra + comment


ROSTERS = (
    one_huge_row,
    lambda: workbook(row(1, cell("name") + cell("x") * 380_000)),  # 14 MB unpacked: past the element budget
    lying_dimension,
    lambda: declared_size(lying_dimension(30), SHEET, 40),
    lambda: b"name\n" + b"a\n" * 1_000_000,
    lambda: (",".join(["name", "date_of_birth"] + [f"notes {n}" for n in range(3, 21)] + ["email"] * 20_000)
             + "\nAnn Lee,1990-01-31\n").encode(),  # columns right of the 20th are ignored, not compared
)
"""Each builds one hostile registration list (issue 22 item 5); the fuzzers draw from them."""
