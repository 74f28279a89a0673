"""Reading a model file (``.npz``) as a hostile file may be: every array's header read and checked
before its data (its dtype, its rank, the size it claims), nothing pickled, nothing larger than a
model can be, every number finite.  :func:`read_arrays` answers the arrays or raises
:class:`ModelError` naming the first problem in one sentence (the ``net`` policy's
``weights=FILE`` parameter turns it into one line and exit 2 before anything is played).

>>> import io
>>> read_arrays(io.BytesIO(b"not a zip"), {"w1": ("f", 2)})
Traceback (most recent call last):
...
herzla.players.modelfile.ModelError: it is not a model file (an .npz archive of numpy arrays)
"""

from __future__ import annotations

import hashlib
import math
import zipfile
from collections.abc import Mapping
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from herzla.errors import HerzlaError
from herzla.i18n import _

__all__ = ["MAX_BYTES", "ModelError", "digest", "read_arrays", "size_text"]

#: the most bytes a model file, or one array of it, may hold (the shipped model is a few KB)
MAX_BYTES = 16 << 20


class ModelError(HerzlaError, ValueError):
    """A model file that is not a model of the expected arrays, with the problem in one
    sentence."""


def size_text(n: int) -> str:
    """Bytes as a person reads them (``608 GiB``)."""
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:,} {unit}" if unit == "bytes" else f"{n:.0f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return f"{n} bytes"  # pragma: no cover


def digest(data: bytes) -> str:
    """The SHA-256 of a model file's bytes, in hex."""
    return hashlib.sha256(data).hexdigest()


def _header(f: IO[bytes]) -> tuple[tuple[int, ...], np.dtype[Any]]:
    version = np.lib.format.read_magic(f)
    if version == (1, 0):
        shape, _order, dtype = np.lib.format.read_array_header_1_0(f)
    elif version == (2, 0):
        shape, _order, dtype = np.lib.format.read_array_header_2_0(f)
    else:
        raise ModelError(_("an array of it is of the unknown .npy format {version}").format(
            version=version))
    return tuple(shape), dtype


def _member(z: zipfile.ZipFile, name: str, kinds: str, ndim: int) -> npt.NDArray[Any]:
    info = z.getinfo(f"{name}.npy")
    if info.file_size > MAX_BYTES:
        raise ModelError(_("its array {name} claims {size}, more than a model holds ({most} "
                           "at most)").format(name=name, size=size_text(info.file_size),
                                              most=size_text(MAX_BYTES)))
    with z.open(info) as f:
        shape, dtype = _header(f)
        if dtype.hasobject or dtype.kind not in kinds:
            raise ModelError((_("its array {name} holds {dtype} values, not text")
                              if kinds == "U" else
                              _("its array {name} holds {dtype} values, not numbers")).format(
                name=name, dtype=dtype))
        if len(shape) != ndim:
            raise ModelError(_("its array {name} has {n} dimensions, not {ndim}").format(
                name=name, n=len(shape), ndim=ndim))
        claimed = math.prod(shape) * dtype.itemsize
        if claimed > MAX_BYTES:
            raise ModelError(_("its array {name} claims {size}, more than a model holds "
                               "({most} at most)").format(name=name, size=size_text(claimed),
                                                          most=size_text(MAX_BYTES)))
    with z.open(info) as f:
        arr: npt.NDArray[Any] = np.lib.format.read_array(f, allow_pickle=False)
    if arr.dtype.kind in "fc" and not np.all(np.isfinite(arr)):
        raise ModelError(_("its array {name} holds values that are not finite (NaN or "
                           "infinity)").format(name=name))
    return arr


def read_arrays(source: str | IO[bytes], expected: Mapping[str, tuple[str, int]],
                optional: Mapping[str, tuple[str, int]] | None = None
                ) -> dict[str, npt.NDArray[Any]]:
    """The arrays of the model file ``source`` (a path or a binary file): ``expected`` and
    ``optional`` name each array with the dtype kinds it may have (``"f"``, ``"fiu"``, ``"U"``
    text) and its number of dimensions.  ModelError names the first problem."""
    try:
        if isinstance(source, str):
            import os

            size = os.stat(source).st_size
            if size > MAX_BYTES:
                raise ModelError(_("it holds {size}, more than a model holds ({most} at "
                                   "most)").format(size=size_text(size),
                                                   most=size_text(MAX_BYTES)))
        with zipfile.ZipFile(source) as z:
            names = set(z.namelist())
            out = {}
            for name, (kinds, ndim) in expected.items():
                if f"{name}.npy" not in names:
                    raise ModelError(_("it has no array {name}").format(name=name))
                out[name] = _member(z, name, kinds, ndim)
            for name, (kinds, ndim) in (optional or {}).items():
                if f"{name}.npy" in names:
                    out[name] = _member(z, name, kinds, ndim)
            return out
    except zipfile.BadZipFile:
        raise ModelError(_("it is not a model file (an .npz archive of numpy arrays)")
                         ) from None
    except (EOFError, KeyError, ValueError, zipfile.LargeZipFile, NotImplementedError) as exc:
        if isinstance(exc, ModelError):
            raise
        raise ModelError(_("it is damaged ({why})").format(
            why=" ".join(str(exc).split()) or type(exc).__name__)) from None
