"""The ``gnav puzzles`` command: puzzles cut from finished matches (``gnav.learn.puzzles``)."""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path
from typing import Any

from gnav.errors import GnavError


def register(sub: Any) -> None:
    """Add ``gnav puzzles`` to the ``gnav`` parser."""
    p = sub.add_parser("puzzles", help="cut puzzles from finished matches: decisions where "
                                       "the expert's choice is clearly better")
    p.add_argument("records", nargs="+", metavar="RECORD", help="finished matches' records")
    p.add_argument("--out", required=True, metavar="FILE",
                   help="the puzzles file to write (JSON; gzipped if FILE ends in .gz)")
    p.set_defaults(func=cmd_puzzles)


def cmd_puzzles(args: argparse.Namespace) -> int:
    from gnav.learn.puzzles import cut, dump
    from gnav.record import loads

    records = []
    for name in args.records:
        path = Path(name)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise GnavError(f"{name}: cannot read it ({e.__class__.__name__})") from None
        try:
            records.append((path.name, loads(text)))
        except GnavError as e:
            raise GnavError(f"{name}: {e}") from None
    result = dump(cut(records))
    body = json.dumps(result, ensure_ascii=False, separators=(",", ":")).encode()
    out = Path(args.out)
    out.write_bytes(gzip.compress(body, mtime=0) if out.suffix == ".gz" else body)
    margins = sorted(p["margin"] for p in result["puzzles"])
    said = (f"{result['count']} puzzles from {result['decisions']} decisions of "
            f"{len(records)} matches")
    if margins:
        said += (f"; margins {margins[0]:.3f} to {margins[-1]:.3f} lives, median "
                 f"{result['median_margin']:.3f}")
    print(f"{said}: {out}")
    return 0
