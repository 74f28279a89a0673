"""Variants of a player compared on the same deals against ``pimc``: a paired duplicate.

    python benchmarks/bench_paired.py --seed 1010 --deals 400 expert 'expert[spread=2]'

Each deal of ``--seed`` (Herzla normal, its own seeded stream) is played twice, the first
``SPEC`` at two seats and ``pimc`` at the other two, then the seats swapped; a deal's value is
the mean of the spec's seats less the mean of ``pimc``'s, over both seatings.  Every spec plays
the same deals with the same move uniforms, so where two specs play alike a deal gives both the
same value, and the difference of two specs taken deal by deal leaves out the deals' own luck:
a much narrower interval than two matches compared side by side.  It prints each spec against
``pimc`` and each later spec less the first, deal by deal, with 95% intervals and how many
deals came out equal.  A spec's values are kept in ``--state`` (a JSON file) as they come in,
so a run stopped and started again (or with more specs) plays only what is missing.  The state
names what it was written for (the seed, the deals, the player compared against): a state of
another seed is refused, with one line and exit 2, rather than read as this seed's.  Not part
of the test suite.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_ladder import margins, mean_interval

from herzla.contracts import contract_class
from herzla.support.procs import local_map
from herzla.support.streams import block_generator, deal_masks, draw_block


def interval(values: list[float]) -> str:
    mean, lo, hi = mean_interval(values)
    return f"{mean:+.2f} [{lo:+.2f}, {hi:+.2f}]"


#: what a state's values were played for, besides the seed
DEALS = "herzla/normal"
AGAINST = "pimc"


def read_state(state: Path, seed: int) -> dict[str, list[float]]:
    """The values kept in ``state`` (none where it does not exist yet); SystemExit (one line,
    exit 2) where it was written for another seed, other deals, or before states named them."""
    if not state.exists():
        return {}
    try:
        data = json.loads(state.read_text())
    except (OSError, ValueError) as exc:
        raise SystemExit(_refuse(state, f"it cannot be read ({exc})")) from None
    wanted = {"seed": seed, "deals": DEALS, "against": AGAINST}
    if not isinstance(data, dict) or not isinstance(data.get("values"), dict):
        raise SystemExit(_refuse(state, "it names no seed (written by an older bench_paired)"))
    for key, value in wanted.items():
        if data.get(key) != value:
            raise SystemExit(_refuse(state, f"it holds the values of {key} {data.get(key)}, "
                                            f"not {value}"))
    values: dict[str, list[float]] = data["values"]
    return values


def _refuse(state: Path, why: str) -> int:
    """Says why ``state`` is refused, in one line; the exit status."""
    print(f"bench_paired: --state {state}: {why}; give another --state or remove it",
          file=sys.stderr)
    return 2


def write_state(state: Path, seed: int, values: dict[str, list[float]]) -> None:
    tmp = state.with_suffix(".tmp")
    tmp.write_text(json.dumps({"seed": seed, "deals": DEALS, "against": AGAINST,
                               "values": values}))
    tmp.replace(state)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("specs", nargs="+", help="the players compared, the first the base")
    ap.add_argument("--deals", type=int, default=400, help="Herzla normal deals (400)")
    ap.add_argument("--seed", type=int, default=1010)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--state", type=Path, default=None,
                    help="where the values are kept (default bench_paired.SEED.json)")
    args = ap.parse_args(argv)
    state: Path = args.state or Path(f"bench_paired.{args.seed}.json")
    got = read_state(state, args.seed)
    pack = [c.index for c in contract_class("herzla", "normal")().pack().cards]
    cards, uniforms = draw_block(block_generator(args.seed, (9, 1)), args.deals, pack, 32)
    deals = [(deal_masks(cards[i], 4, 8), uniforms[i]) for i in range(args.deals)]
    print(f"paired against pimc: Python {sys.version.split()[0]}, {args.deals} Herzla normal "
          f"deals x 2 seatings, seed {args.seed}, {time.strftime('%Y-%m-%d %H:%M')}", flush=True)
    for spec in args.specs:
        have = got.get(spec, [])
        if len(have) < args.deals:
            start = time.time()
            play = functools.partial(margins, spec, against=AGAINST)
            got[spec] = have + [x for part in local_map(
                play, [[d] for d in deals[len(have):]], args.jobs - 1) for x in part]
            write_state(state, args.seed, got)
            print(f"  {spec}: {time.time() - start:.0f} s", flush=True)
    base = got[args.specs[0]][:args.deals]
    for spec in args.specs:
        print(f"  {spec:<40} - pimc: {interval(got[spec][:args.deals])}")
    for spec in args.specs[1:]:
        diff = [a - b for a, b in zip(got[spec][:args.deals], base, strict=True)]
        print(f"  {spec:<40} - {args.specs[0]}: {interval(diff)} "
              f"({sum(d == 0 for d in diff)} deals equal)")


if __name__ == "__main__":
    main()
