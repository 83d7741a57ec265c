"""Images a rulebook shows, and the temporary files its layout makes.

An image is what its bytes say (a drawing named ``.png`` is no PNG) and its size is read
from its header before WeasyPrint or a browser decodes it: PNG and JPEG of at most 40
million pixels (README, "Limits"). Each case runs the real ``pnp rulebook`` in an edition
made with ``pnp init``, bounded in time and memory (``tests/refusal.py``).

WeasyPrint copies the fonts of a layout into a folder of its own in ``$TMPDIR``, about
5 MB: it must be gone after the command, whether it succeeds, is refused in the layout,
is stopped by SIGTERM, or was killed outright (the next layout removes it).
"""

from __future__ import annotations

import base64
import io
import os
import shutil
import signal
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

from pnp.books.images import image_type
from pnp.errors import ReadError
from refusal import assert_refused, pnp

TEXT = "templates/rulebooks/qwinto/en.md"


def png(width: int, height: int) -> bytes:
    """A black-and-white PNG (one bit a pixel) of ``width`` x ``height``, all zero: a
    12000 x 12000 one is 18 KB, compressed."""
    row = b"\0" * (1 + (width + 7) // 8)
    pixels = zlib.compressobj(9)
    body = b"".join(pixels.compress(row) for _ in range(height)) + pixels.flush()
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 1, 0,
                                                               0, 0, 0))
            + _chunk(b"IDAT", body) + _chunk(b"IEND", b""))


def png_header(width: int, height: int) -> bytes:
    """The start of a PNG: its signature, its header (IHDR) and an empty IDAT, all that
    is read of it before it is decoded."""
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 1,
                                                               0, 0, 0, 0)) + _chunk(b"IDAT", b"")


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def jpeg_header(width: int, height: int) -> bytes:
    """The start of a JPEG (SOI, a JFIF APP0, a baseline SOF0 of one component): all
    that is read of it before it is decoded."""
    app0 = b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0"
    sof0 = struct.pack(">BHHB", 8, height, width, 1) + b"\x01\x11\x00"
    return (b"\xff\xd8" + b"\xff\xe0" + struct.pack(">H", len(app0) + 2) + app0
            + b"\xff\xc0" + struct.pack(">H", len(sof0) + 2) + sof0 + b"\xff\xd9")


LOOP_SVG = (b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            b'width="10" height="10"><image href="loop.png" xlink:href="loop.png" '
            b'width="10" height="10"/></svg>')
"""A drawing that shows itself: WeasyPrint draws it for ever."""
GIF = (b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00"
       b"\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")


def _sound_jpeg() -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (4, 3), (0, 90, 200)).save(out, "JPEG")
    return out.getvalue()


def _edition(made: Path, tmp_path: Path, text: str, files: dict[str, bytes]) -> Path:
    edition = tmp_path / "edition"
    shutil.copytree(made, edition, symlinks=True)
    (edition / TEXT).write_text(text)
    for name, data in files.items():
        (edition / "templates" / name).write_bytes(data)
    return edition


def _data_url(kind: str, data: bytes) -> str:
    return f"data:{kind};base64,{base64.b64encode(data).decode()}"


CASES = {
    "a drawing named .png": ("![x](loop.png)", {"loop.png": LOOP_SVG},
                             "en.md:3: shows loop.png: not a PNG or JPEG image"),
    "a GIF": ("![x](dot.gif)", {"dot.gif": GIF},
              "en.md:3: shows dot.gif, which is not a PNG or JPEG image"),
    "a GIF named .png": ("![x](dot.png)", {"dot.png": GIF},
                         "en.md:3: shows dot.png: not a PNG or JPEG image (a GIF image)"),
    "12000 x 12000 pixels": ("![x](big.png)", {"big.png": png(12000, 12000)},
                             "en.md:3: shows big.png: a PNG image of 12000 x 12000 pixels, "
                             "more than 40 million"),
    "a JPEG of 9000 x 9000": ("![x](big.jpg)", {"big.jpg": jpeg_header(9000, 9000)},
                              "shows big.jpg: a JPEG image of 9000 x 9000 pixels"),
    "inline, a drawing said to be a PNG": (
        f"![x]({_data_url('image/png', LOOP_SVG)})", {}, "en.md:3: shows data:image/png"),
    "inline, 12000 x 12000 pixels": (
        f"![x]({_data_url('image/png', png(12000, 12000))})", {},
        "a PNG image of 12000 x 12000 pixels"),
    "inline, a GIF": (f"![x]({_data_url('image/gif', GIF)})", {},
                      "only PNG and JPEG images may be inlined"),
}


@pytest.mark.parametrize("fmt", ["pdf", "html"])
@pytest.mark.parametrize("name", list(CASES))
def test_an_image_is_what_its_bytes_say_and_bounded(made: Path, tmp_path: Path, name: str,
                                                    fmt: str) -> None:
    markdown, files, words = CASES[name]
    edition = _edition(made, tmp_path, f"# Hi\n\n{markdown}\n", files)
    out = tmp_path / f"book.{fmt}"
    run = pnp("rulebook", "qwinto", "--lang", "en", "--format", fmt, "-o", str(out),
              cwd=edition)
    assert_refused(run, words)
    assert "DecompressionBomb" not in run.stderr
    assert not out.exists()


@pytest.mark.parametrize("fmt", ["pdf", "html"])
def test_a_style_sheet_may_not_show_a_drawing_under_another_name(made: Path, tmp_path: Path,
                                                                 fmt: str) -> None:
    edition = _edition(made, tmp_path, "# Hi\n\nText.\n", {"loop.ttf": LOOP_SVG})
    sheet = edition / "templates" / ("print.css" if fmt == "pdf" else "screen.css")
    sheet.write_text("body { background: url(loop.ttf) }\n" + sheet.read_text())
    run = pnp("rulebook", "qwinto", "--lang", "en", "--format", fmt, "-o",
              str(tmp_path / f"book.{fmt}"), cwd=edition)
    assert_refused(run, "css:1: refers to loop.ttf")


def test_png_and_jpeg_images_are_shown(made: Path, tmp_path: Path) -> None:
    jpeg = _sound_jpeg()
    edition = _edition(made, tmp_path, "# Hi\n\n![a](dot.png) ![b](photo.jpeg) "
                       f"![c]({_data_url('image/jpeg', jpeg)})\n",
                       {"dot.png": png(3, 2), "photo.jpeg": jpeg})
    for fmt in ("pdf", "html"):
        run = pnp("rulebook", "qwinto", "--lang", "en", "--format", fmt, "-o",
                  str(tmp_path / f"book.{fmt}"), cwd=edition)
        assert run.code == 0 and run.stderr == "", run.stderr
    page = (tmp_path / "book.html").read_text()
    assert page.count("data:image/png;base64,") == 1
    assert page.count("data:image/jpeg;base64,") == 2
    import pypdf

    reader = pypdf.PdfReader(tmp_path / "book.pdf")
    shown = [(image.image.width, image.image.height) for page in reader.pages
             for image in page.images]
    assert set(shown) == {(3, 2), (4, 3)}, shown  # pages share their images' resources


@pytest.mark.parametrize(("size", "allowed"), [((8000, 5000), True), ((8000, 5001), False),
                                               ((5000, 8001), False), ((1, 40_000_000), True),
                                               ((40_000_001, 1), False)])
def test_forty_million_pixels_are_read_from_the_header(size: tuple[int, int],
                                                       allowed: bool) -> None:
    """40 million pixels are allowed, one more is not; the images are only headers (they
    would not decode), so nothing but the header is read."""
    images = [(png_header(*size), "image/png")]
    if max(size) < 65536:
        images.append((jpeg_header(*size), "image/jpeg"))
    for data, kind in images:
        if allowed:
            assert image_type(data) == kind
        else:
            with pytest.raises(ReadError, match=f"{size[0]} x {size[1]} pixels"):
                image_type(data)


# --- the layout's temporary files ---------------------------------------------------------

def _rulebook(edition: Path, out: Path, temporary: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "pnp", "rulebook", "qwinto", "--lang", "en",
                             "-o", str(out)], cwd=edition,
                            env={**os.environ, "TMPDIR": str(temporary), "LANG": "C.UTF-8"},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_a_rulebook_leaves_nothing_in_the_temporary_folder(made: Path, tmp_path: Path) -> None:
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    run = pnp("rulebook", "qwinto", "--lang", "en", "-o", str(tmp_path / "book.pdf"),
              cwd=made, env={"TMPDIR": str(temporary)})
    assert run.code == 0, run.stderr
    assert (tmp_path / "book.pdf").stat().st_size > 10_000
    assert list(temporary.iterdir()) == []


def test_a_worker_process_leaves_nothing(tmp_path: Path) -> None:
    """A rulebook laid out in a worker of a process pool, as ``pnp build`` lays them out:
    a worker ends without running what ends a program (``os._exit``)."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    code = ("from concurrent.futures import ProcessPoolExecutor\n"
            "from pnp.books.render import render\n"
            "with ProcessPoolExecutor(1) as pool:\n"
            "    assert len(pool.submit(render, 'rulebook', 'qwinto', 'en').result()) > 10000\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120,
                          env={**os.environ, "TMPDIR": str(temporary)}, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert list(temporary.iterdir()) == []


def test_a_layout_refused_midway_leaves_nothing(made: Path, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Refused in the layout itself (the fetcher, after the fonts are loaded): a page
    naming a file that is gone by then."""
    import tempfile

    from pnp import assets
    from pnp.books.compose import compose
    from pnp.books.pdf import render_pdf
    from pnp.errors import DocumentError

    edition = _edition(made, tmp_path, "# Hi\n\n![x](dot.png)\n", {"dot.png": png(3, 2)})
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    assets.use(assets.Edition.from_folder(edition))
    try:
        composed = compose("rulebook", "qwinto", "en")
        (edition / "templates" / "dot.png").unlink()
        with pytest.raises(DocumentError, match=r"refers to dot\.png, which is not a file"):
            render_pdf(composed)
    finally:
        assets.use(None)
    assert list(temporary.iterdir()) == []


def _stopped_in_layout(made: Path, tmp_path: Path, stop: signal.Signals) -> tuple[int, Path]:
    """Run the rulebook and send ``stop`` once the layout has made its fonts' folder (by
    pnp's name for it, or WeasyPrint's); the exit status and the temporary folder."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    process = _rulebook(made, tmp_path / "book.pdf", temporary)
    try:
        deadline = time.monotonic() + 60
        while not any(entry.name.startswith(("pnp-fonts-", "weasyprint-"))
                      for entry in temporary.iterdir()) and process.poll() is None:
            assert time.monotonic() < deadline, "no temporary folder made"
            time.sleep(0.005)
        process.send_signal(stop)
        process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return process.returncode, temporary


def test_a_rulebook_stopped_by_sigterm_leaves_nothing(made: Path, tmp_path: Path) -> None:
    code, temporary = _stopped_in_layout(made, tmp_path, signal.SIGTERM)
    assert code == -signal.SIGTERM, code
    assert list(temporary.iterdir()) == []
    assert not (tmp_path / "book.pdf").exists()


def test_the_fonts_of_a_killed_layout_go_with_the_next(made: Path, tmp_path: Path) -> None:
    code, temporary = _stopped_in_layout(made, tmp_path, signal.SIGKILL)
    assert code == -signal.SIGKILL, code
    assert list(temporary.iterdir()) != []  # what no process can clean up after itself
    run = pnp("rulebook", "qwinto", "--lang", "en", "-o", str(tmp_path / "book.pdf"),
              cwd=made, env={"TMPDIR": str(temporary)})
    assert run.code == 0, run.stderr
    assert list(temporary.iterdir()) == []


def test_an_image_the_policy_cannot_see_is_checked_when_it_is_loaded(made: Path,
                                                                     tmp_path: Path) -> None:
    """Inside ``<svg><style>``, html.parser reads text where WeasyPrint reads an image:
    the layout's fetcher checks what it loads, and the drawing is refused, not drawn for
    ever."""
    edition = _edition(made, tmp_path, "# Hi\n\nText.\n", {"loop.png": LOOP_SVG})
    page = edition / "templates" / "rulebook.html.j2"
    page.write_text(page.read_text().replace(
        "<main>", '<main><svg><style><img src="loop.png"></style></svg>', 1))
    run = pnp("rulebook", "qwinto", "--lang", "en", "-o", str(tmp_path / "book.pdf"),
              cwd=edition)
    assert_refused(run, "en.md: refers to loop.png: not a PNG or JPEG image")
