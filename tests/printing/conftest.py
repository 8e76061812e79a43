import subprocess

import pytest


def pdf_text(data: bytes, mode: str = "-layout") -> str:
    """The PDF's text as poppler's pdftotext reads it: `-layout` keeps rows on one line, `-raw` reads in
    the order the text was laid out (column by column)."""
    assert data.startswith(b"%PDF-")
    return subprocess.run(["pdftotext", mode, "-enc", "UTF-8", "-", "-"], input=data, capture_output=True,
                          check=True).stdout.decode()


@pytest.fixture
def text_of():
    return pdf_text
