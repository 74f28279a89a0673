"""Tables of people under load: one ``herzla serve`` on the loopback address, 8 tables of 4
people (Herzla's normal game, every seat a person), each person a thread that does what a
phone's page does (asks for the table's revision every second, fetches its page when it has
grown) and plays its first legal card on its turn, every fifth play sent twice at once (a
double tap).  Reports the wall seconds each play waited for its answer (median, 95th
percentile, slowest), the double taps refused, and checks that every deal kept exactly its 32
cards, each once, and replays to its scores.

    python benchmarks/bench_people.py                   # 8 tables of 4, 2 deals each
    python benchmarks/bench_people.py --tables 4 --deals 1 --period 0.5 --json people.json

Needs the web extra.  The server and the 32 people share this machine's cores.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from people_load import call, make_tables, run_people  # noqa: E402  (this folder)

from herzla.records import read_record, replay  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--period", type=float, default=1.0,
                        help="seconds between a page's revision polls (the app's: 1)")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen([sys.executable, "-m", "herzla", "serve", "--port", "0",
                                 "--db", str(Path(tmp) / "people.db")],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
        try:
            assert proc.stdout is not None
            ready, _, _ = select.select([proc.stdout], [], [], 120)
            assert ready, "herzla serve printed nothing"
            found = re.search(r"(http://\S+/)", proc.stdout.readline().decode())
            assert found is not None
            base = found.group(1)
            tables = make_tables(base, args.tables)
            start = time.perf_counter()
            people = run_people(base, tables, args.deals, args.period)
            wall = time.perf_counter() - start
            errors = [e for p in people for e in p.errors]
            for t in tables:
                status, done = call(base, "GET", f"/api/tables/{t['id']}",
                                    key=t["seats"][0]["key"])
                assert status == 200 and done["over"], done
                assert len(done["moves"]) == 32 == len(set(done["moves"]))
                assert list(replay(read_record(done["record"])).scores or ()) == done["scores"]
                status, pad = call(base, "GET", f"/api/tables/{t['id']}/evening",
                                   key=t["seats"][0]["key"])
                assert len(pad["deals"]) == args.deals - 1
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.communicate(timeout=60)
    waits = sorted(w for p in people for w in p.latencies)
    out = {"tables": args.tables, "people": len(people), "deals": args.deals,
           "period": args.period, "plays": len(waits), "wall_s": round(wall, 1),
           "play_median_s": round(statistics.median(waits), 4),
           "play_p95_s": round(waits[min(len(waits) - 1, int(0.95 * len(waits)))], 4),
           "play_max_s": round(waits[-1], 4),
           "within_half_a_second": sum(w <= 0.5 for w in waits) / len(waits),
           "doubles_refused": sum(p.refused_doubles for p in people), "errors": errors,
           "cpus": os.cpu_count(), "python": platform.python_version()}
    print(json.dumps(out, indent=2))
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
