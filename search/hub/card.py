"""The dataset card (README.md) of a published index, written from its manifest alone: what
was indexed (sources, upstream commits, each corpus's own licence, counts), with which model
and settings, how to rebuild it and how to serve it. A card says "not recorded" rather than
guess, except for the licence of a shared corpus read at the very commit the manifest gives."""

from __future__ import annotations

from typing import Any

import yaml

from search.index.manifest import RECORDS

#: The Hub's licence identifiers of the licences the corpora state (SPDX-like names); an
#: index of several licences, or of one not listed here, is `other` and the card lists each.
HUB_LICENCES = {
    "apache-2.0": "apache-2.0", "mit": "mit", "cc-by-4.0": "cc-by-4.0", "cc-by-sa-3.0": "cc-by-sa-3.0",
    "cc-by-sa-4.0": "cc-by-sa-4.0", "gfdl-1.2": "gfdl", "gfdl-1.3": "gfdl",
}
NOT_RECORDED = "not recorded"


def source_licence(name: str, info: dict[str, Any]) -> str:
    """The licence the manifest records for a source; for a manifest written before licences
    were kept, the shared corpus of that name when it is at the same commit; else unknown."""
    if info.get("licence"):
        return str(info["licence"])
    from search.corpus.sources import resolve_source

    try:
        shared = resolve_source(name)
        if shared.path.exists() and info.get("commit") and shared.commit() == info["commit"]:
            return shared.licence() or NOT_RECORDED
    except (ValueError, OSError):
        pass
    return NOT_RECORDED


def build_command(manifest: dict[str, Any]) -> str:
    """The command the manifest records, else the one its settings imply (sources by name:
    a user's NAME=PATH source needs its path, which the manifest does not keep)."""
    if manifest.get("build_command"):
        return str(manifest["build_command"])
    embedding = manifest.get("embedding", {})
    parts = ["python -m search build --out index", "--sources", *manifest.get("sources", {})]
    if manifest.get("model"):
        parts += ["--model", str(manifest["model"])]
    for option, key in (("--backend", "backend"), ("--profile", "profile")):
        if embedding.get(key):
            parts += [option, str(embedding[key])]
    if embedding.get("views"):
        parts += ["--views", ",".join(embedding["views"])]
    return " ".join(parts) + "   # reconstructed from the manifest's settings"


def dataset_card(manifest: dict[str, Any], address: str) -> str:
    """README.md for the dataset repository at `address` (`hf://datasets/OWNER/NAME`)."""
    sources: dict[str, dict[str, Any]] = manifest.get("sources", {})
    counts: dict[str, dict[str, int]] = manifest.get("counts", {})
    licences = {name: source_licence(name, info) for name, info in sources.items()}
    hub_ids = {HUB_LICENCES.get(licence.lower(), "other") for licence in licences.values()}
    metadata = {
        "license": hub_ids.pop() if len(hub_ids) == 1 else "other",
        "pretty_name": "Theorem search index",
        "tags": ["theorem-search", "mathematics", "lean4", "information-retrieval"],
        "configs": [{"config_name": "records", "data_files": RECORDS}],
    }
    embedding = manifest.get("embedding", {})
    files = manifest.get("files", {})
    lines = [
        "---", yaml.safe_dump(metadata, sort_keys=False).rstrip(), "---", "",
        "# Theorem search index", "",
        f"A prebuilt index of {manifest.get('total', 0):,} statements for the theorem search app "
        "(one hybrid ranking over Lean declarations and LaTeX statements). Serve it with",
        "", "```", f"python app.py --index {address}", "```", "",
        f"or, on a Hugging Face Space, set the variable `INDEX_DIR={address}`. The app checks every "
        "file against `manifest.json` (size and SHA-256) before it serves.", "",
        "## Sources", "",
        "Each corpus keeps its own licence: the records quote it (statements, docstrings, proofs' "
        "names), so reuse follows the licence of the source a record comes from.", "",
        "| source | format | upstream commit | licence | records |", "| --- | --- | --- | --- | ---: |",
    ]
    for name, info in sources.items():
        commit = f"`{info['commit']}`" if info.get("commit") else NOT_RECORDED
        lines.append(f"| {name} | {info.get('format', NOT_RECORDED)} | {commit} | {licences[name]} | "
                     f"{sum(counts.get(name, {}).values()):,} |")
    lines += ["", "Records per kind:", ""]
    for name, kinds in counts.items():
        lines.append(f"- {name}: " + ", ".join(f"{kind} {n:,}" for kind, n in kinds.items()))
    bm25 = manifest.get("bm25", {})
    lines += [
        "", "## Model and settings", "",
        f"- embedding model: `{manifest.get('model', NOT_RECORDED)}` ({embedding.get('backend', '?')}, "
        f"views {', '.join(embedding.get('views', [])) or '?'}, profile {embedding.get('profile', '?')})",
        f"- lexical: {bm25.get('method', '?')} (" + ", ".join(f"{k} {v}" for k, v in bm25.items() if k != "method") + ")",
        "", "## Build", "",
        f"- build date: {manifest.get('build_date', NOT_RECORDED)}",
        f"- code version: `{manifest.get('code_version', NOT_RECORDED)}`",
        f"- index format: {manifest.get('format_version', NOT_RECORDED)}",
        f"- files: {len(files)} ({sum(f['bytes'] for f in files.values()):,} bytes), each with its SHA-256 "
        "in `manifest.json`",
        "", "Rebuild it with:", "", "```", build_command(manifest), "```", "",
    ]
    return "\n".join(lines)
