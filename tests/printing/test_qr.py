"""core.qr makes segno's own QR code: the mask it picks is segno's, module for module."""
import random
import string

import pytest
import segno

from core import qr

random.seed(23)
PAYLOADS = ([f"https://catan.example.org/r/t-{n}/tables/{n * 7919}/sheet/" for n in range(0, 4000, 37)]
            + ["".join(random.choices(string.printable, k=random.randint(1, 300))) for _ in range(60)]
            + ["آن لي · אן לי " * n for n in range(1, 12)] + ["1234" * n for n in range(1, 30)])


@pytest.mark.parametrize("error", ["l", "m", "h"])
def test_the_same_code_as_segno_makes(error):
    masks = set()
    for payload in PAYLOADS:
        expected, made = segno.make(payload, error=error), qr.make(payload, error=error)
        assert (made.matrix, made.mask, made.version, made.error) == (
            expected.matrix, expected.mask, expected.version, expected.error), payload
        masks.add(made.mask)
    assert len(masks) > 4  # the payloads chose many masks, not the first one every time


def test_the_grey_png_has_a_pixel_per_module_black_on_white():
    from base64 import b64decode
    from io import BytesIO

    from PIL import Image

    code = qr.make(PAYLOADS[0], error="m")
    uri = qr.grey_png_data_uri(code)
    image = Image.open(BytesIO(b64decode(uri.removeprefix("data:image/png;base64,"))))
    size = len(code.matrix)
    assert (image.format, image.mode, image.size) == ("PNG", "L", (size, size))
    assert [[image.getpixel((x, y)) for x in range(size)] for y in range(size)] == [
        [0 if module else 255 for module in row] for row in code.matrix]
