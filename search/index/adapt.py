"""`python -m search adapt`: the embedding model taught about Mathlib on pairs made from the corpus.

People describe the declaration they want; most theorems carry no docstring, so the index
embeds their name and verbalised type (search/text/views.py `text_view`). A pair is some
author's text about a record and the record's text view:
- `doc`: its docstring -> its view as it would read without the docstring;
- `informal`: the line of its file's module doc that describes it -> its view (not a
  docstring it inherits from its structure or definition: that describes another record);
- `title`: a famous title from Mathlib's lists -> its view;
- `stacks`: the Stacks statement it formalises -> its view, for the `train` half of the
  `@[stacks]` links only (`search.corpus.crosslinks.link_half`).
No evaluation query set is read. Each record gives at most one pair, so two pairs of a batch
never share a passage.

The loss is sentence-transformers' MultipleNegativesRankingLoss: each query against every
passage of its batch, in batches drawn at random. (Batches of one file's declarations, whose
negatives are the ones a search must tell apart, made the model worse on a pool of the dev
golds and 5,000 declarations, dense alone: R@10 0.766 as shipped, 0.648 after 20,000 pairs
in such batches, 0.768 after 8,000 pairs in random ones; docs/ranking.md, "Domain adaptation".)
Training is seeded; the output is the sentence-transformers directory plus its int8 ONNX
export (the serving model), which `python -m search build --model DIR` copies into the index.
"""

from __future__ import annotations

import json
import random
import re
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Sequence

from search import config
from search.corpus.crosslinks import link_half
from search.index.embed import INT8_FILE, export_int8, resolve_model
from search.record import Statement
from search.text.views import first_sentences, text_view

#: The file of an adapted model's directory that says how it was made.
REPORT_FILE = "adaptation.json"
ORIGINS = ("doc", "informal", "title", "stacks")
#: Origins whose pairs are few and the most like a person's query: all are kept.
RARE = ("title", "stacks")

#: A description that opens with the declaration's own name ("Foo.bar: ..."): the name is
#: cut, or the pair would teach matching names, which the names signal already does.
_NAME_PREFIX = re.compile(r"^\S+\s?:\s+")


@dataclass(frozen=True)
class Pair:
    """A query made from the corpus and the text view of the record it describes."""

    query: str
    passage: str
    origin: str


@dataclass
class AdaptOptions:
    """Everything a trained model depends on besides the corpora; saved beside it."""

    base: str = config.DEFAULT_MODEL
    pairs: int = 20_000
    epochs: int = 1
    batch_size: int = 64
    learning_rate: float = 2e-5
    warmup: float = 0.1
    seed: int = 0
    #: Tokens and characters of the text views, as the default build embeds them
    #: (search/index/build.py PROFILES["quality"]).
    max_length: int = 48
    text_chars: int = 120
    progress: bool = True
    counts: dict[str, int] = field(default_factory=dict)


def training_pairs(statements: Sequence[Statement], options: AdaptOptions) -> list[Pair]:
    """About `options.pairs` pairs, one per record: every title and Stacks pair, and the rest
    drawn from the docstring and description pairs with the options' seed."""
    stacks_text = {
        s.id: first_sentences(s.doc or s.statement, 300) for s in statements if s.source == "stacks"
    }
    docs = {_opening(s.doc) for s in statements if s.formal and s.doc}
    candidates: list[Pair] = []
    seen: set[str] = set()
    for s in statements:
        if not s.formal:
            continue
        pair = _pair(s, stacks_text, docs, options.text_chars)
        if pair is not None and pair.passage not in seen:
            seen.add(pair.passage)
            candidates.append(pair)
    rare = [p for p in candidates if p.origin in RARE]
    common = [p for p in candidates if p.origin not in RARE]
    wanted = max(options.pairs - len(rare), 0)
    chosen = rare + (common if len(common) <= wanted else random.Random(options.seed).sample(common, wanted))
    options.counts = {origin: sum(p.origin == origin for p in chosen) for origin in ORIGINS}
    return chosen


def _opening(text: str) -> str:
    """A text's first 60 characters as `first_sentences` gives them: what tells an inherited
    docstring."""
    return first_sentences(text, 300)[:60]


def _pair(s: Statement, stacks_text: dict[str, str], docs: set[str], limit: int) -> Pair | None:
    """The record's pair, from its rarest kind of author text (the ones most like a query);
    `docs` holds the openings of every docstring, which inherited descriptions repeat."""
    for tag in s.meta.get("stacks_tags", []):
        text = stacks_text.get(f"stacks:{tag}")
        if text and link_half(tag) == "train":
            return Pair(text, text_view(s, limit), "stacks")
    if s.aliases:
        return Pair(s.aliases[0], text_view(s, limit), "title")
    informal = _NAME_PREFIX.sub("", first_sentences(s.informal, 300)) if s.informal else ""
    if len(informal) >= 15 and _opening(informal) not in docs:
        return Pair(informal, text_view(s, limit), "informal")
    doc = first_sentences(s.doc, 300) if s.doc else ""
    if len(doc) >= 15:
        return Pair(doc, text_view(replace(s, doc=""), limit), "doc")
    return None


def batches(pairs: Sequence[Pair], size: int, seed: int) -> list[list[Pair]]:
    """The pairs in a seeded random order, cut into batches (a last batch of one is dropped:
    it has no negative)."""
    shuffled = list(pairs)
    random.Random(seed).shuffle(shuffled)
    cut = [shuffled[i : i + size] for i in range(0, len(shuffled), size)]
    return [batch for batch in cut if len(batch) > 1]


def adapt_model(statements: Sequence[Statement], out: Path, options: AdaptOptions) -> dict:
    """Train from `options.base` on the corpus's pairs, save the model and its int8 export
    in `out`, and return the report also written there (`REPORT_FILE`)."""
    start = time.perf_counter()
    pairs = training_pairs(statements, options)
    if not pairs:
        raise ValueError("the sources give no training pairs (no Lean record has a docstring or description)")
    import torch
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.losses import MultipleNegativesRankingLoss
    from tqdm.auto import tqdm
    from transformers import get_linear_schedule_with_warmup

    torch.manual_seed(options.seed)
    model = SentenceTransformer(resolve_model(options.base), device="cpu")
    model.max_seq_length = options.max_length
    loss = MultipleNegativesRankingLoss(model)
    plan = [batches(pairs, options.batch_size, options.seed + epoch) for epoch in range(options.epochs)]
    steps = sum(len(epoch) for epoch in plan)
    optimizer = torch.optim.AdamW(model.parameters(), lr=options.learning_rate)
    schedule = get_linear_schedule_with_warmup(optimizer, int(options.warmup * steps), steps)
    losses: list[float] = []
    model.train()
    with tqdm(total=steps, desc="adapt", unit="batch", mininterval=5, disable=not options.progress) as bar:
        for epoch in plan:
            for batch in epoch:
                features = [model.preprocess([p.query for p in batch]), model.preprocess([p.passage for p in batch])]
                value = loss(features, None)
                value.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                optimizer.step()
                schedule.step()
                optimizer.zero_grad()
                losses.append(float(value.detach()))
                bar.update()
    model.eval()
    out.mkdir(parents=True, exist_ok=True)
    model.save(str(out))
    export_int8(str(out), out / INT8_FILE)
    tenth = max(len(losses) // 10, 1)
    report = {
        "options": {k: v for k, v in asdict(options).items() if k not in ("progress", "counts")},
        "pairs": options.counts,
        "steps": steps,
        "loss_first_tenth": round(sum(losses[:tenth]) / tenth, 4),
        "loss_last_tenth": round(sum(losses[-tenth:]) / tenth, 4),
        "seconds": round(time.perf_counter() - start, 1),
    }
    (out / REPORT_FILE).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return report
