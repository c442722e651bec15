"""The TheoremSearch dataset (arXiv theorems with LLM slogans) as Statement records.

`uw-math-ai/theorem-search-dataset` has four configs, one Parquet table each:
`theorem` (theorem_id, paper_id, name, body, label, link), `theorem_slogan` (slogan_id,
theorem_id, model, slogan), `paper` (paper_id, title, link, citations, primary_category,
license) and `theorem-test` (query, theorem number, paper title, link).

It is read either from the Hugging Face hub (`datasets.load_dataset`, split `train`) or from a
local folder in one of two layouts:
- the hub repository as downloaded: `theorem.parquet`, `theorem_slogan.parquet`,
  `paper.parquet`, `theorems-test.parquet`;
- one folder per config: `<dir>/<config>/*.parquet` (e.g. `theorem/part-0.parquet`).
Column names are compared in snake case, so `theorem number` and `theorem_number` both work.

Records: id `arxiv:<theorem_id>`, source `arxiv`, statement = LaTeX body, doc = a slogan,
package = the paper's primary arXiv category, url = the theorem's link (else the paper's).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import pyarrow.parquet as pq

from search.record import Statement

DATASET = "uw-math-ai/theorem-search-dataset"
SOURCE = "arxiv"
SPLIT = "train"

#: Where each config lives in the hub repository (the test config's file name differs).
HUB_FILES = {
    "theorem": "theorem.parquet",
    "theorem_slogan": "theorem_slogan.parquet",
    "paper": "paper.parquet",
    "theorem-test": "theorems-test.parquet",
}

#: Paper columns copied to `meta` when a version of the dataset has them.
_OPTIONAL_PAPER_FIELDS = ("authors", "year", "published", "updated", "categories", "abstract")
_KINDS = ("theorem", "lemma", "proposition", "corollary", "definition", "conjecture",
          "claim", "remark", "example", "fact", "observation", "assumption")  # fmt: skip
_ARXIV_ID = re.compile(r"(\d{4}\.\d{4,5}|[a-z][a-z.-]*/\d{7})(?:v\d+)?", re.I)


class TheoremSearchUnavailable(RuntimeError):
    """The dataset could not be read (hub unreachable, folder missing a table, ...)."""


@dataclass(frozen=True)
class TheoremQuery:
    """A benchmark query and the theorem it should find.

    `relevant` is the `arxiv:<theorem_id>` of that theorem when it is among the statements
    given to `load_theoremsearch_queries`, otherwise the link from the test set.
    """

    query: str
    relevant: str
    link: str
    theorem: str
    paper_title: str


# --------------------------------------------------------------------------------------------
# Reading tables


def _snake(name: str) -> str:
    return re.sub(r"[^0-9a-z]+", "_", name.strip().lower()).strip("_")


def _rows(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{_snake(key): value for key, value in record.items()} for record in records]


def _local_files(folder: Path, config: str) -> list[Path]:
    nested = sorted((folder / config).glob("*.parquet"))
    if nested:
        return nested
    flat = [folder / HUB_FILES[config], folder / f"{config}.parquet"]
    return [path for path in dict.fromkeys(flat) if path.is_file()][:1]


def _read_local(folder: Path, config: str, limit: int | None) -> list[dict[str, Any]]:
    files = _local_files(folder, config)
    if not files:
        raise TheoremSearchUnavailable(
            f"{folder} has no {config!r} table: expected {folder / config}/*.parquet "
            f"or {folder / HUB_FILES[config]}"
        )
    rows: list[dict[str, Any]] = []
    for path in files:
        table = pq.read_table(path)
        if limit is not None:
            table = table.slice(0, limit - len(rows))
        rows += _rows(table.to_pylist())
        if limit is not None and len(rows) >= limit:
            break
    return rows


def _read_hub(name: str, config: str, limit: int | None) -> list[dict[str, Any]]:
    try:
        from datasets import load_dataset

        dataset = load_dataset(name, config, split=SPLIT)
    except Exception as error:  # network, auth, missing dataset: all mean "not readable here"
        raise TheoremSearchUnavailable(
            f"cannot load {name!r} (config {config!r}) from the Hugging Face hub: "
            f"{type(error).__name__}: {error}. Download the Parquet files "
            f"({', '.join(HUB_FILES.values())}) and pass their folder instead."
        ) from error
    if limit is not None:
        dataset = dataset.select(range(min(limit, len(dataset))))
    return _rows(dataset.to_list())


def read_config(name_or_dir: str, config: str, limit: int | None = None) -> list[dict[str, Any]]:
    """Rows of one config (snake-case keys), from a local folder if it exists, else the hub."""
    folder = Path(name_or_dir).expanduser()
    if folder.is_dir():
        return _read_local(folder, config, limit)
    return _read_hub(name_or_dir, config, limit)


# --------------------------------------------------------------------------------------------
# Statements


def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def _kind(name: str) -> str:
    """"Theorem 2.3" -> theorem; names without a theorem-like word count as theorems."""
    first = name.split()[0].lower().rstrip(".:") if name.split() else ""
    return first if first in _KINDS else "theorem"


def _slogans(rows: list[dict[str, Any]], wanted: set[str]) -> dict[str, dict[str, str]]:
    """theorem_id -> {model: slogan}, the first slogan of each model by slogan_id."""
    by_theorem: dict[str, dict[str, str]] = defaultdict(dict)
    for row in sorted(rows, key=lambda r: _text(r.get("slogan_id"))):
        theorem = _text(row.get("theorem_id"))
        if theorem in wanted and _text(row.get("slogan")):
            by_theorem[theorem].setdefault(_text(row.get("model")), _text(row["slogan"]))
    return by_theorem


def _paper_meta(paper: dict[str, Any]) -> dict[str, Any]:
    meta = {
        "paper_title": _text(paper.get("title")),
        "paper_link": _text(paper.get("link")),
        "category": _text(paper.get("primary_category")),
        "citations": paper.get("citations"),
        "license": _text(paper.get("license")),
    }
    meta.update({key: paper[key] for key in _OPTIONAL_PAPER_FIELDS if paper.get(key) is not None})
    return meta


def _statement(
    row: dict[str, Any], paper: dict[str, Any], slogans: dict[str, str], model: str | None
) -> Statement:
    theorem_id = _text(row.get("theorem_id"))
    paper_id = _text(row.get("paper_id"))
    name = _text(row.get("name")) or _text(row.get("label")) or theorem_id
    chosen = model if model in slogans else min(slogans, default="")
    meta = {"paper_id": paper_id, "label": _text(row.get("label")), **_paper_meta(paper)}
    if slogans:
        meta["slogans"] = dict(sorted(slogans.items()))
    ident = f"{SOURCE}:{theorem_id}"
    return Statement(
        id=ident,
        source=SOURCE,
        kind=_kind(name),
        name=name,
        statement=_text(row.get("body")),
        language="latex",
        doc=slogans.get(chosen, ""),
        module=paper_id,
        url=_text(row.get("link")) or meta["paper_link"],
        package=meta["category"],
        group=ident,
        meta=meta,
    )


def load_theoremsearch(
    name_or_dir: str = DATASET, limit: int | None = None, slogan_model: str | None = None
) -> list[Statement]:
    """The dataset's theorems (the first `limit` ones) joined with their slogans and papers.

    `doc` is the slogan written by `slogan_model` when it has one, otherwise the slogan of
    the alphabetically first model; every slogan stays in `meta["slogans"]` by model.
    Raises TheoremSearchUnavailable with a readable message when the data cannot be read.
    """
    theorems = read_config(name_or_dir, "theorem", limit)
    wanted = {_text(row.get("theorem_id")) for row in theorems}
    slogans = _slogans(read_config(name_or_dir, "theorem_slogan"), wanted)
    papers = {_text(row.get("paper_id")): row for row in read_config(name_or_dir, "paper")}
    statements = []
    for row in theorems:
        paper = papers.get(_text(row.get("paper_id")), {})
        found = slogans.get(_text(row.get("theorem_id")), {})
        statements.append(_statement(row, paper, found, slogan_model))
    return statements


# --------------------------------------------------------------------------------------------
# Benchmark queries


def arxiv_id(link: str) -> str:
    """The version-less arXiv identifier in a link ("" when there is none)."""
    match = _ARXIV_ID.search(link or "")
    return match.group(1).lower() if match else ""


def _number(theorem: str) -> str:
    """"Theorem 1.2" -> "1.2", "Lemma A." -> "a", "3.4" -> "3.4", "Theorem" -> ""."""
    words = theorem.replace("~", " ").split()
    if not words or (len(words) == 1 and words[0].lower().rstrip(".:") in _KINDS):
        return ""
    return words[-1].strip(".:()[]").lower()


def _theorem_index(statements: Iterable[Statement]) -> dict[tuple[str, str], list[str]]:
    """(arXiv id, theorem number) -> statement ids, for matching test queries."""
    index: dict[tuple[str, str], list[str]] = defaultdict(list)
    for statement in statements:
        paper = arxiv_id(statement.meta.get("paper_link", "")) or arxiv_id(statement.url)
        if paper and _number(statement.name):
            index[(paper, _number(statement.name))].append(statement.id)
    return index


def _relevant(row: dict[str, Any], index: dict[tuple[str, str], list[str]]) -> str:
    link = _text(row.get("link"))
    theorem = _text(row.get("theorem_number") or row.get("theorem"))
    found = index.get((arxiv_id(link), _number(theorem)), [])
    return found[0] if len(found) == 1 else link


def load_theoremsearch_queries(
    name_or_dir: str = DATASET, statements: Iterable[Statement] = ()
) -> list[TheoremQuery]:
    """The `theorem-test` queries, each with its relevant theorem.

    A query names its theorem by paper link and number ("Theorem 1.2"); when exactly one
    of `statements` (as `load_theoremsearch` returns them) has that arXiv id and number,
    `relevant` is its id, otherwise the link (paper-level relevance).
    """
    index = _theorem_index(statements)
    return [
        TheoremQuery(
            query=_text(row.get("query")),
            relevant=_relevant(row, index),
            link=_text(row.get("link")),
            theorem=_text(row.get("theorem_number") or row.get("theorem")),
            paper_title=_text(row.get("paper_title") or row.get("title")),
        )
        for row in read_config(name_or_dir, "theorem-test")
        if _text(row.get("query"))
    ]
