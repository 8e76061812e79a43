"""Which characters were drawn without a glyph ("tofu"), read from the output itself: the fonts a PDF embeds, and
the fonts Chromium says it used for an element."""
import io
import re
import subprocess
from functools import cache
from pathlib import Path

from fontTools.pens.boundsPen import BoundsPen
from fontTools.ttLib import TTFont
from pypdf import PdfReader
from pypdf.generic import DictionaryObject, StreamObject

NAMES_BY_SCRIPT = {
    "Latin": "Zoë Łukasiewicz-Ångström",
    "Vietnamese": "Nguyễn Thị Hằng",
    "Greek": "Γιώργος Παπαδόπουλος",
    "Cyrillic": "Анастасия Ёлкина",
    "Armenian": "Արամ Խաչատրյան",
    "Georgian": "ნინო ბერიძე",
    "Arabic": "فاطمة الزهراء",
    "Persian": "گلناز پژمان",
    "Hebrew": "נועה כהן",
    "Devanagari": "अनुपम नायक",
    "Thai": "สมชาย ใจดี",
    "Chinese": "王小明",
    "Japanese": "鈴木 さくら",
    "Korean": "김민준",
    "Ethiopic": "አበበ ቢቂላ",
    "Katakana": "タナカ ユウ",
}
"""One player's name in each script a name may come in (sixteen: four tables of four)."""

_PAIRS = re.compile(rb"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]*)>")
_CID_PAIRS = re.compile(rb"<([0-9a-fA-F]+)>\s*(\d+)")


def _blocks(data: bytes, begin: bytes, end: bytes) -> bytes:
    return b"".join(re.findall(begin + rb"(.*?)" + end, data, re.S))


def _drawn(glyphs, name: str) -> bool:
    pen = BoundsPen(glyphs)
    glyphs[name].draw(pen)
    return pen.bounds is not None


def pdf_missing_glyphs(data: bytes) -> set[str]:
    """The text of every glyph the PDF shows without an outline: mapped to .notdef, or absent from the embedded font.

    Each Type0 font's ToUnicode CMap names the text of every glyph code the pages use; its encoding (Identity, or
    a CMap sending codes to CID 0 = .notdef) gives the glyph; the embedded font program must draw it. Whitespace
    legitimately has no outline.
    """
    reader = PdfReader(io.BytesIO(data))
    missing: set[str] = set()
    for number in range(1, int(reader.trailer["/Size"])):
        font = reader.get_object(number)
        if not isinstance(font, DictionaryObject) or font.get("/Type") != "/Font" or font.get("/Subtype") != "/Type0":
            continue
        to_unicode = font["/ToUnicode"].get_object().get_data()
        texts = {int(code, 16): bytes.fromhex(text.decode()).decode("utf-16-be")
                 for code, text in _PAIRS.findall(_blocks(to_unicode, rb"beginbfchar", rb"endbfchar"))}
        encoding = font.get("/Encoding")
        cids = {}
        if encoding is not None and isinstance(encoding.get_object(), StreamObject):
            cids = {int(code, 16): int(cid) for code, cid in
                    _CID_PAIRS.findall(_blocks(encoding.get_object().get_data(), rb"begincidchar", rb"endcidchar"))}
        descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"].get_object()
        program = next(descriptor[key].get_object().get_data() for key in ("/FontFile2", "/FontFile3")
                       if key in descriptor)
        embedded = TTFont(io.BytesIO(program))
        order, glyphs = embedded.getGlyphOrder(), embedded.getGlyphSet()
        for code, text in texts.items():
            gid = cids.get(code, code)  # CIDToGIDMap /Identity
            if text.strip() and not (0 < gid < len(order) and _drawn(glyphs, order[gid])):
                missing.add(text)
    return missing


@cache
def _installed_fonts() -> dict[str, tuple[str, int]]:
    """PostScript name → (file, index in a collection) of every font fontconfig knows."""
    listing = subprocess.run(["fc-list", "--format", "%{postscriptname}\t%{file}\t%{index}\n"],
                             capture_output=True, text=True, check=True).stdout
    found: dict[str, tuple[str, int]] = {}
    for line in listing.splitlines():
        name, file, index = line.split("\t")
        found.setdefault(name, (file, int(index)))
    return found


@cache
def _cmap(postscript_name: str) -> frozenset[int]:
    file, index = _installed_fonts()[postscript_name]
    with TTFont(Path(file), fontNumber=index, lazy=True) as font:
        return frozenset(font.getBestCmap())


def uncovered(text: str, postscript_names: list[str]) -> set[str]:
    """The characters of `text` that none of these installed fonts has a glyph for (what Chromium drew as tofu)."""
    fonts = [_cmap(name) for name in postscript_names]
    return {char for char in text if not char.isspace() and not any(ord(char) in font for font in fonts)}
