"""Reading a photo from disk, refusing what is not one before it costs memory or time.

``qwirkle scan``, ``qwirkle replay`` on a folder and the tests all read photos through
:func:`load_image`. A file can be a named pipe (reading it waits for ever), a 30 GB file or a
40,000-pixel-wide picture (gigabytes once decoded), a few pixels (nothing to read), or cut
short (half a photo that still decodes): each is an :class:`ImageError` that says which.
"""

from __future__ import annotations

import stat
import struct
from pathlib import Path

import cv2
import numpy as np

MAX_PIXELS = 100_000_000
"""A 100-megapixel photo is 300 MB decoded; a table needs far fewer."""

MAX_FILE_BYTES = 200 * 1024 * 1024
"""No photo of a table is this big (a 100-megapixel camera's JPEG is about 40 MB)."""

MIN_SIDE = 16
"""Fewer pixels than this a side cannot show a tile."""


class ImageError(ValueError):
    """A file that is missing or cannot be decoded as an image."""


def load_image(path: str | Path) -> np.ndarray:
    """Read a photo as a BGR array, or raise :class:`ImageError` saying what is wrong."""
    path = Path(path)
    try:
        info = path.stat()
    except OSError:
        raise ImageError(f"{path}: no such file") from None
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "a pipe or device"
        raise ImageError(f"{path}: not a photo file ({kind}); skipped")
    if info.st_size == 0:
        raise ImageError(f"{path}: the file is empty")
    if info.st_size > MAX_FILE_BYTES:
        raise ImageError(f"{path}: {info.st_size / 2**20:,.0f} MB is too big for a photo "
                         f"(at most {MAX_FILE_BYTES // 2**20} MB)")
    data = np.fromfile(str(path), dtype=np.uint8)
    width, height = _dimensions(data.tobytes()[:64 * 1024])
    if width * height > MAX_PIXELS:
        raise ImageError(f"{path}: {width}x{height} pixels is too big to read (at most "
                         f"{MAX_PIXELS // 1_000_000} megapixels)")
    try:
        image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    except cv2.error:
        image = None
    cut = _cut_short(data)
    if image is None or cut:
        why = ("the file is cut short: an incomplete copy or download?" if cut
               else "corrupt or unsupported format")
        raise ImageError(f"{path}: not a readable image ({why})")
    if min(image.shape[:2]) < MIN_SIDE:
        height, width = image.shape[:2]
        raise ImageError(f"{path}: {width}x{height} pixels is too small to show a tile "
                         f"(at least {MIN_SIDE} a side)")
    return image


def _cut_short(data: np.ndarray) -> bool:
    """Whether a JPEG or PNG lacks its end marker: a truncated file decodes as a photo whose
    lower part is grey, and would be scanned as if the table were empty there."""
    head, tail = data[:8].tobytes(), data[-32:].tobytes()
    if head.startswith(b"\xff\xd8"):
        return b"\xff\xd9" not in tail
    if head.startswith(b"\x89PNG"):
        return b"IEND" not in tail
    return False


def _dimensions(head: bytes) -> tuple[int, int]:
    """(width, height) from a PNG, JPEG or BMP header, without decoding; (0, 0) when the
    header does not say (other formats are left to OpenCV's own limit)."""
    if head.startswith(b"\x89PNG") and len(head) >= 24:
        return struct.unpack(">II", head[16:24])
    if head.startswith(b"BM") and len(head) >= 26:
        width, height = struct.unpack("<ii", head[18:26])
        return abs(width), abs(height)
    if head.startswith(b"\xff\xd8"):
        at = 2
        while at + 9 <= len(head) and head[at] == 0xFF:
            marker, length = head[at + 1], struct.unpack(">H", head[at + 2:at + 4])[0]
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):  # a frame header
                height, width = struct.unpack(">HH", head[at + 5:at + 9])
                return width, height
            at += 2 + length
    return 0, 0
