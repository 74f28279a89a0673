"""The build hook: the catalogs' ``.po`` sources compiled into the wheel as ``.mo`` files.

Compiled by herzla's own compiler (``herzla/i18n/catalog.py``, loaded by its path, so that the
build needs nothing of herzla installed); an editable install reads the ``.po`` files instead.
"""

from __future__ import annotations

import importlib.util
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CatalogHook(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        root = Path(self.root)
        spec = importlib.util.spec_from_file_location(
            "_herzla_catalog", root / "herzla" / "i18n" / "catalog.py")
        assert spec is not None and spec.loader is not None
        catalog = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = catalog
        spec.loader.exec_module(catalog)
        out = Path(tempfile.mkdtemp(prefix="herzla-mo-"))
        for po in sorted((root / "herzla" / "locale").glob("*/LC_MESSAGES/*.po")):
            rel = po.relative_to(root).with_suffix(".mo")
            target = out / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(catalog.compile_po(po.read_text(encoding="utf-8")))
            build_data["force_include"][str(target)] = str(rel)
