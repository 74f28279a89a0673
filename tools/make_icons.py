"""Draw the app's home-screen icons (herzla/web/static/icon-192.png and icon-512.png): a white
heart on the app's dark red, written as PNG with the standard library alone.

    python tools/make_icons.py
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

STATIC = Path(__file__).resolve().parents[1] / "herzla" / "web" / "static"
RED = (139, 26, 26)
WHITE = (255, 255, 255)


def _inside_heart(x: float, y: float) -> bool:
    """(x, y) in [-1.3, 1.3]², y up: inside the heart curve (x² + y² - 1)³ <= x² y³."""
    return (x * x + y * y - 1) ** 3 - x * x * y ** 3 <= 0


def png(size: int) -> bytes:
    rows = []
    for j in range(size):
        row = bytearray([0])
        for i in range(size):
            x = (i + 0.5) / size * 2.8 - 1.4
            y = 1.5 - (j + 0.5) / size * 2.8
            row += bytes(WHITE if _inside_heart(x, y) else RED)
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


def main() -> None:
    for size in (192, 512):
        (STATIC / f"icon-{size}.png").write_bytes(png(size))


if __name__ == "__main__":
    main()
