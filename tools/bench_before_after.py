"""``gnav bench`` at two commits in one run, alternating, so both see the same machine.

    python tools/bench_before_after.py --before 80337af --seats 10 --jobs 1

The ``before`` tree is taken with ``git archive`` into a temporary folder; ``after`` is
this working tree's ``src``. Each repeat runs one ``gnav bench --json`` of each, in fresh
interpreters; the best per-core figure of each is reported, and the ratio. A developer
tool, outside the installed package.
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import oneline

ROOT = Path(__file__).resolve().parents[1]
PROBE = ("import json, sys; import gnav; from gnav.cli import main; "
         "sys.stderr.write(gnav.__file__ + '\\n'); sys.exit(main(sys.argv[1:]))")


def export(rev: str, into: Path) -> Path:
    """The ``src`` of commit ``rev``, in ``into`` (the tools that compare a commit with this
    tree in one run import it from here)."""
    data = subprocess.run(["git", "archive", rev, "src"], cwd=ROOT, check=True,
                          capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def _bench(src: Path, args: list[str]) -> dict[str, object]:
    proc = subprocess.run([sys.executable, "-c", PROBE, "bench", *args, "--json"],
                          env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, check=True)
    where = proc.stderr.strip().splitlines()[0]
    if not where.startswith(str(src)):
        raise SystemExit(f"imported gnav from {where}, not from {src}")
    result: dict[str, object] = json.loads(proc.stdout)
    return result


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--before", default="main", help="a commit (default main)")
    p.add_argument("--seats", type=int, default=10)
    p.add_argument("--rounds", type=int, default=20000)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args(argv)
    if args.repeat < 1:
        p.error("--repeat must be at least 1")
    bench = ["--seats", str(args.seats), "--rounds", str(args.rounds), "--jobs", str(args.jobs)]
    with tempfile.TemporaryDirectory() as tmp:
        before_src = export(args.before, Path(tmp))
        runs: dict[str, list[float]] = {"before": [], "after": []}
        for _ in range(args.repeat):
            for label, src in (("before", before_src), ("after", ROOT / "src")):
                result = _bench(src, bench)
                runs[label].append(float(str(result["rounds_per_core_s"])))
    best = {label: max(values) for label, values in runs.items()}
    for label in ("before", "after"):
        shown = ", ".join(f"{v:,.0f}" for v in runs[label])
        print(f"{label:6} ({args.before if label == 'before' else 'this tree'}): "
              f"best {best[label]:,.0f} rounds/s per core (runs: {shown})")
    print(f"after / before: {best['after'] / best['before']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(oneline.run(main, "python tools/bench_before_after.py"))
