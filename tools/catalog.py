"""Keep herzla's catalogs in step with the code (needs Babel, in the ``test`` extra).

    python tools/catalog.py update       # add new messages, drop gone ones, keep translations
    python tools/catalog.py check        # exit 1 listing what is missing, fuzzy or mismatched
    python tools/catalog.py missing      # the messages still to translate, one a line

Translate by editing ``herzla/locale/<lang>/LC_MESSAGES/herzla.po`` (its ``msgstr`` lines);
the ``.mo`` files are built when the wheel is, never by hand.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from herzla.i18n.extract import languages, problems, update  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["update", "check", "missing"])
    args = parser.parse_args(argv)
    status = 0
    for lang in languages():
        if args.what == "update":
            total, open_ = update(lang)
            print(f"{lang}: {total} messages, {open_} to translate")
        else:
            found = list(problems(lang))
            for p in found:
                print(f"{lang}: {p}" if args.what == "check" else p)
            status = 1 if found and args.what == "check" else status
    return status


if __name__ == "__main__":
    raise SystemExit(main())
