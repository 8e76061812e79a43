"""core.qr writes segno's QR code as a greyscale PNG, a pixel per module, black on white."""
from base64 import b64decode
from io import BytesIO

import pytest
import segno
from PIL import Image

from core import qr


@pytest.mark.parametrize("payload", ["https://catan.example.org/r/t-37/tables/293003/sheet/", "آن لي · אן לי " * 9])
def test_the_grey_png_has_a_pixel_per_module_black_on_white(payload):
    code = segno.make(payload, error="m")
    uri = qr.grey_png_data_uri(code)
    image = Image.open(BytesIO(b64decode(uri.removeprefix("data:image/png;base64,"))))
    size = len(code.matrix)
    assert (image.format, image.mode, image.size) == ("PNG", "L", (size, size))
    assert [[image.getpixel((x, y)) for x in range(size)] for y in range(size)] == [
        [0 if module else 255 for module in row] for row in code.matrix]
