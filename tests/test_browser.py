"""The HTML page in a real browser: headless Chromium renders it offline and the screenshot is
checked (not blank; the hearts red).  Skipped where Chromium is not installed."""

from __future__ import annotations

import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from herzla.draw.course import course
from herzla.draw.html import record_page, sheet_page
from herzla.sheets import score_sheet
from tests.test_draw import EXAMPLES, example

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")]


def read_png(data: bytes) -> npt.NDArray[np.uint8]:
    """The pixels of an 8-bit RGB or RGBA PNG (what Chromium writes), as (height, width, 3)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks, header = 8, [], b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks.append(body)
        pos += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour in (2, 6), (depth, colour)
    bpp = 3 if colour == 2 else 4
    raw = np.frombuffer(zlib.decompress(b"".join(chunks)), dtype=np.uint8)
    rows = raw.reshape(height, 1 + width * bpp)
    out = np.zeros((height, width * bpp), dtype=np.int32)
    prev = np.zeros(width * bpp, dtype=np.int32)
    for y in range(height):
        filt, line = int(rows[y, 0]), rows[y, 1:].astype(np.int32)
        if filt == 0:
            cur = line
        elif filt == 2:
            cur = (line + prev) & 0xFF
        else:  # sub, average and Paeth depend on the pixel to the left: byte by byte
            cur = np.zeros_like(line)
            for i in range(len(line)):
                a = cur[i - bpp] if i >= bpp else 0
                b, c = prev[i], prev[i - bpp] if i >= bpp else 0
                if filt == 1:
                    pred = a
                elif filt == 3:
                    pred = (a + b) // 2
                else:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                cur[i] = (line[i] + pred) & 0xFF
        out[y] = cur
        prev = cur
    return out.reshape(height, width, bpp)[:, :, :3].astype(np.uint8)


def screenshot(page: Path, tmp_path: Path, size: str = "1280,1400") -> npt.NDArray[np.uint8]:
    assert CHROMIUM is not None
    shot = tmp_path / "shot.png"
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
                    f"--screenshot={shot}", f"--window-size={size}", page.as_uri()],
                   capture_output=True, timeout=180, check=False)
    assert shot.exists(), "chromium wrote no screenshot"
    return read_png(shot.read_bytes())


def test_png_reader() -> None:
    # a 2 x 2 RGB picture, one row with filter 0 and one with filter 1 (sub)
    rows = b"\x00\xff\x00\x00\x00\x00\xff" + b"\x01\x10\x20\x30\x10\x10\x10"
    body = struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))

    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", body) + chunk(b"IDAT", zlib.compress(rows))
           + chunk(b"IEND", b""))
    pixels = read_png(png)
    assert pixels.tolist() == [[[255, 0, 0], [0, 0, 255]], [[16, 32, 48], [32, 48, 64]]]


def test_hand_page_renders(tmp_path: Path) -> None:
    page = tmp_path / "hand.html"
    page.write_text(record_page(course(example("herzla-two-void.json")), "french"),
                    encoding="utf-8")
    pixels = screenshot(page, tmp_path)
    ink: npt.NDArray[np.bool_] = np.asarray((pixels < 200).any(axis=2))
    assert ink.mean() > 0.02  # not blank: cards, tables and text are drawn
    r, g, b = (pixels[:, :, k].astype(int) for k in range(3))
    red = (r > 150) & (g < 80) & (b < 90)
    assert red.sum() > 500  # the hearts and diamonds are red
    top = ink[: pixels.shape[0] // 3]
    assert top.mean() > 0.02  # the picture is at the top, not pushed off the page


def test_sheet_page_renders(tmp_path: Path) -> None:
    import json

    doc = json.loads((EXAMPLES / "herzla-session.json").read_text(encoding="utf-8"))
    page = tmp_path / "sheet.html"
    page.write_text(sheet_page(score_sheet(doc)), encoding="utf-8")
    pixels = screenshot(page, tmp_path, "1000,900")
    assert (pixels < 200).any(axis=2).mean() > 0.02
