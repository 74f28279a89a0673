"""Friends on a small server, under load: ``--tables`` tables of 4 people (Herzla's normal game,
every seat a person) played through two ``herzla serve`` processes on one PostgreSQL database,
side by side with the same tables through one process on an SQLite file, in one run.  Each
person is a thread that does what a phone's page does (asks for the table's revision every
``--period`` seconds, fetches its page and the table when it changed) and plays its first legal
card on its turn, every fifth card sent twice at once (a double tap: with two processes, one
copy to each); with two processes each person's calls go to them in turn.  Reports, for each
store, the seconds each play waited for its answer (median, 95th percentile, slowest), the
double taps refused, and checks that every deal kept exactly its 32 cards, each once, and
replays to its scores (nothing lost, nothing doubled).  Bounded: one deal per table, at most
``--wait`` seconds of play per store; loopback only.

    python benchmarks/bench_server.py                          # 50 tables, both stores
    python benchmarks/bench_server.py --tables 10 --json server.json
    HERZLA_TEST_POSTGRES=postgresql://u:p@127.0.0.1/db python benchmarks/bench_server.py

Needs the web and server extras and a PostgreSQL server (the one ``.ci/run`` makes: the role
and database ``herzla``/``herzla_test`` on 127.0.0.1); a schema of its own is made and dropped.
The servers and the people share this machine's cores.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import secrets
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from people_load import call, make_tables, run_people  # noqa: E402  (this folder)

from herzla.records import read_record, replay  # noqa: E402

DEFAULT_POSTGRES = "postgresql://herzla:herzla@127.0.0.1:5432/herzla_test"


def _serve(db: str, cwd: str) -> tuple[subprocess.Popen[bytes], str]:
    proc = subprocess.Popen([sys.executable, "-m", "herzla", "serve", "--port", "0", "--db", db],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=cwd,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], 120)
    if not ready:
        proc.kill()
        raise SystemExit("herzla serve printed nothing")
    found = re.search(r"(http://\S+/)", proc.stdout.readline().decode())
    assert found is not None
    return proc, found.group(1)


def _run(dbs: list[str], args: argparse.Namespace, cwd: str) -> dict[str, Any]:
    """The people at ``args.tables`` tables through one server per entry of ``dbs``."""
    procs: list[subprocess.Popen[bytes]] = []
    try:
        bases = []
        for db in dbs:
            proc, base = _serve(db, cwd)
            procs.append(proc)
            bases.append(base)
        tables = make_tables(bases[0], args.tables, seed=args.seed)
        start = time.perf_counter()
        people = run_people(bases if len(bases) > 1 else bases[0], tables, 1, args.period,
                            wait=args.wait)
        wall = time.perf_counter() - start
        unfinished = sum(p.is_alive() for p in people)
        for p in people:
            p.stop.set()
        errors = [e for p in people for e in p.errors]
        kept = lost = 0
        for t in tables:
            status, done = call(bases[-1], "GET", f"/api/tables/{t['id']}",
                                key=t["seats"][0]["key"])
            assert status == 200, done
            moves = done["moves"]
            ok = (done["over"] and len(moves) == 32 == len(set(moves))
                  and list(replay(read_record(done["record"])).scores or ()) == done["scores"])
            answered = {card for p in people if p.tid == t["id"] for _, card in p.played}
            lost += len(answered - set(moves))
            kept += ok
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
        for proc in procs:
            proc.communicate(timeout=60)
    waits = sorted(w for p in people for w in p.latencies)
    return {"servers": len(dbs), "tables": args.tables, "people": len(people),
            "plays": len(waits), "wall_s": round(wall, 1),
            "play_median_s": round(statistics.median(waits), 4),
            "play_p95_s": round(waits[min(len(waits) - 1, int(0.95 * len(waits)))], 4),
            "play_max_s": round(waits[-1], 4),
            "within_half_a_second": round(sum(w <= 0.5 for w in waits) / len(waits), 4),
            "doubles_refused": sum(p.refused_doubles for p in people),
            "deals_whole": kept, "answered_plays_lost": lost,
            "people_unfinished": unfinished, "errors": errors[:10]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--period", type=float, default=1.0,
                        help="seconds between a page's revision polls (the app's: 1)")
    parser.add_argument("--seed", type=int, default=54)
    parser.add_argument("--wait", type=float, default=900.0,
                        help="the most seconds of play for each store")
    parser.add_argument("--store", choices=("both", "postgres", "sqlite"), default="both")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args()
    out: dict[str, Any] = {"cpus": os.cpu_count(), "python": platform.python_version(),
                           "period": args.period, "seed": args.seed}
    with tempfile.TemporaryDirectory() as tmp:
        if args.store in ("both", "postgres"):
            import psycopg

            url = os.environ.get("HERZLA_TEST_POSTGRES", DEFAULT_POSTGRES)
            schema = "bench_" + secrets.token_hex(4)
            with psycopg.connect(url, autocommit=True) as con:
                con.execute(f"CREATE SCHEMA {schema}")
            try:
                sep = "&" if "?" in url else "?"
                db = f"{url}{sep}options={quote(f'-csearch_path={schema}')}"
                out["postgres_two_processes"] = _run([db, db], args, tmp)
            finally:
                with psycopg.connect(url, autocommit=True) as con:
                    con.execute(f"DROP SCHEMA {schema} CASCADE")
        if args.store in ("both", "sqlite"):
            out["sqlite_one_process"] = _run([str(Path(tmp) / "bench.db")], args, tmp)
    print(json.dumps(out, indent=2))
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    bad = any(r["errors"] or r["answered_plays_lost"] or r["deals_whole"] != r["tables"]
              for k, r in out.items() if isinstance(r, dict))
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
