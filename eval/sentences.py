"""`python -m eval sentences`: a seeded random sample of the informaliser's sentences, with the
statements they say, for people to judge (search/corpus/lean/informaliser.py)."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from search import config


def sample_sentences(index_dir: Path, size: int, seed: int) -> list[dict[str, str]]:
    """`size` Lean records of the index said in words, drawn with `seed`, in name order."""
    import numpy as np
    import pyarrow.compute as pc

    from search.index.store import Index

    index = Index.load(index_dir)
    table = index.records.table
    said = np.flatnonzero(pc.not_equal(table["informal_statement"], "").to_numpy(zero_copy_only=False))
    picked = sorted(random.Random(seed).sample(said.tolist(), min(size, len(said))))
    rows = [{"name": s.name, "kind": s.kind, "statement": " ".join(s.statement.split()),
             "sentence": s.informal_statement} for s in index.records.take(picked)]
    return sorted(rows, key=lambda r: r["name"])


def _sentences(args: argparse.Namespace) -> int:
    rows = sample_sentences(Path(args.index), args.sample, args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    report = {"command": args.command_line, "index": args.index, "seed": args.seed, "samples": rows}
    (out / "sentences.json").write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    for row in rows:
        print(f"- `{row['name']}` ({row['kind']}): {row['sentence']}")
    return 0


def add_parser(commands: argparse._SubParsersAction) -> None:
    sentences = commands.add_parser("sentences", help="a random sample of the informaliser's sentences, to judge")
    sentences.add_argument("--index", default=str(config.DEFAULT_INDEX_DIR))
    sentences.add_argument("--sample", type=int, default=50)
    sentences.add_argument("--seed", type=int, default=0)
    sentences.add_argument("--out", required=True, help="directory of sentences.json")
    sentences.set_defaults(run=_sentences)
