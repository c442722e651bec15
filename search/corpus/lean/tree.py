"""Parse a tree of Lean 4 sources into declaration records, without a Lean toolchain.

The records have the fields of the shared Lean corpora (`../shared/corpora/lean/*.jsonl.gz`,
documented in their README) plus `attribute_args` (the full text of each attribute item)
and `derived_from` (for records generated from another declaration: `@[to_additive]`
twins and `alias`es).  Parsing is layout based, as Mathlib-style sources allow:

1. each file is lexed (`syntax.lex`): comments, strings and char literals are blanked out
   (doc comments are remembered), so keywords inside comments or strings are never read;
2. its commands are read in order, with their scopes and `open`s (`commands`);
3. over the whole tree: unnamed instances are named (`instance_names`), `to_additive` twins
   (`to_additive`) and `alias` records are added, and identifier tokens are resolved to the
   declarations of the tree (`refs`).

Known approximations (beyond those of `instance_names`, `to_additive` and `expr`):

* refs: locals are recognised by syntax (binders, `fun`/`∀`/`∃`, `intro`/`obtain`/`have`/...,
  pattern variables; flow-insensitive), tactic names by layout; ambiguous names at root level
  keep every visible match; all imports are treated as re-exported; the module system's
  implicit privacy is not modelled;
* to_additive: `(reorder := ...)` is ignored; `to_dual`, `@[simps]`, `@[reassoc]`, `mk_iff`
  and other generated names are not produced;
* instance names: Lean's `_1` suffix for a taken name is applied within the file only;
* hidden directories (`.lake`, `.git`) and a top-level `lakefile.lean` are skipped.
"""

from __future__ import annotations

import gc
import json
import re
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Iterable, Iterator

from search.corpus.lean.commands import FileParser, attribute_names
from search.corpus.lean.decl import TYPE_KINDS, Decl, SourceFile, top_level_colon
from search.corpus.lean.derived import fresh_name
from search.corpus.lean.instance_names import instance_name
from search.corpus.lean.refs import Tree
from search.corpus.lean.syntax import IDENT_PATTERN, clean_name, lex, qualify, split_name, top_level
from search.corpus.lean.to_additive import AdditiveSpec, additive_signature, additive_spec, twin_name


def module_name(path: str) -> str:
    """`Foo/Bar.lean` -> `Foo.Bar`."""
    return path.removesuffix(".lean").replace("/", ".")


_IMPORT_RE = re.compile(rf"^(?:public\s+)?(?:meta\s+)?import\s+(?:all\s+)?({IDENT_PATTERN})", re.MULTILINE)


def _imports(masked: str) -> list[str]:
    return [clean_name(m.group(1)) for m in _IMPORT_RE.finditer(masked)]


def lean_files(root: Path) -> list[Path]:
    """The `.lean` files of a tree, sorted by relative path; hidden directories and a
    top-level `lakefile.lean` are build machinery, not modules."""
    files = []
    for path in root.rglob("*.lean"):
        rel = path.relative_to(root)
        if any(part.startswith(".") for part in rel.parts) or rel.as_posix() == "lakefile.lean":
            continue
        files.append(path)
    return sorted(files, key=lambda p: p.relative_to(root).as_posix())


def _name_instances(files: list[SourceFile], decls: list[Decl]) -> None:
    """Give unnamed instances the name Lean would (`_1`, `_2` ... when taken in the file)."""
    suffixes: set[str] = set()
    for d in decls:
        if d.name:
            parts = split_name(d.name)
            suffixes.update(".".join(parts[k:]) for k in range(len(parts)))
    taken: dict[int, set[str]] = {}
    for d in decls:
        names = taken.setdefault(d.file, set())
        if d.name is None and d.kind == "instance":
            project = split_name(files[d.file].module)[0]
            d.name = fresh_name(instance_name(d.signature, d.namespace, suffixes, project), names)
        if d.name:
            names.add(d.name)


_AttributeSpec = tuple[int, str, str, AdditiveSpec]  # file, namespace, written target, spec


def _translations(tree: Tree, decls: list[Decl], attribute_specs: list[_AttributeSpec]) -> dict[str, str]:
    """Source -> additive full names.  Shorter names go first, so that the namespace of
    `Monoid.foo` is translated with the entry made for `Monoid`."""
    specs: list[tuple[str, AdditiveSpec]] = [(d.name, d.additive) for d in decls if d.additive and d.name]
    for file, namespace, written, spec in attribute_specs:
        viewer = Decl(None, "", file, float("inf"), namespace=namespace)
        hits = tree.resolve(written, viewer, *tree.context(viewer))
        specs.append((hits[0].name if hits else qualify(namespace, written), spec))
    table: dict[str, str] = {}
    for name, spec in sorted(specs, key=lambda s: len(split_name(s[0]))):
        table[name] = twin_name(name, spec, table)
    return table


def _relative(name: str, namespace: str) -> str:
    return name[len(namespace) + 1:] if namespace and name.startswith(namespace + ".") else name


def _additive_decl(source: Decl, table: dict[str, str]) -> Decl:
    """The record `@[to_additive]` on `source` generates."""
    spec = source.additive
    name = table.get(source.name) or twin_name(source.name, spec, table)
    written = _relative(name, source.namespace)
    keyword = source.signature.split(None, 1)[0] if source.signature else source.kind
    statement = additive_signature(source.sig_rest) if source.sig_rest else ""
    return replace(
        source, name=name, order=source.order + 0.5, docstring=spec.doc,
        signature=f"{keyword} {written}{statement}", sig_rest=statement,
        attributes=attribute_names(spec.attr_items), attribute_args=list(spec.attr_items),
        fields=[], constructors=[], candidates=[], additive=additive_spec(spec.attr_items),
        derived_from=source.name,
    )


def _derive_additive(decls: list[Decl], table: dict[str, str]) -> list[Decl]:
    """Insert `to_additive` twins right after their sources (twins of twins too, from
    `(attr := to_additive ...)`).  Structures and `existing` targets are written by hand."""
    out: list[Decl] = []
    for d in decls:
        out.append(d)
        current = d
        while (current.additive and current.name and not current.additive.existing
               and current.kind not in TYPE_KINDS):
            twin = _additive_decl(current, table)
            if twin.name == current.name:
                break  # nothing to translate: Lean rejects such an attribute
            out.append(twin)
            current = twin
    return out


def _finish_alias(tree: Tree, d: Decl) -> None:
    """Resolve an alias's target; take its kind when it is not a theorem (an alias of a
    `def` is a `def`) and its statement (split `A ↔ B` for `alias ⟨mp, mpr⟩`)."""
    hits = tree.resolve(d.alias.target, d, *tree.context(d))
    target = hits[0] if hits else None
    d.derived_from = target.name if target else clean_name(d.alias.target)
    d.refs = [target.name] if target else []
    if target is None:
        return
    if target.kind not in ("theorem", "lemma", "instance"):
        d.kind = target.kind
    d.sig_rest = _alias_statement(target.sig_rest, d.alias.direction)
    if d.sig_rest is not None:
        d.signature = f"{d.kind} {_relative(d.name, d.namespace)}{d.sig_rest}"
    else:
        d.sig_rest, d.signature = "", d.alias.command


def _alias_statement(sig_rest: str, direction: str) -> str | None:
    """The statement of `alias a := t` (t's), or of `alias ⟨mp, mpr⟩ := t` for `t : A ↔ B`
    (`A → B` / `B → A`); None when the iff cannot be split textually."""
    if not direction:
        return sig_rest
    colon = top_level_colon(sig_rest)
    if colon < 0:
        return None
    statement = sig_rest[colon + 1:]
    iff = next(top_level(statement, "↔"), -1)
    if iff < 0:
        return None
    lhs, rhs = statement[:iff].strip(), statement[iff + 1:].strip()
    premise, conclusion = (lhs, rhs) if direction == "mp" else (rhs, lhs)
    return f"{sig_rest[:colon + 1]} {premise} → {conclusion}"


def _resolve_refs(tree: Tree, d: Decl) -> list[str]:
    levels, opens = tree.context(d)
    refs = {h.name for token in d.candidates for h in tree.resolve(token, d, levels, opens)}
    refs.discard(d.name)
    return sorted(refs)


def parse_sources(sources: Iterable[tuple[str, str]]) -> tuple[list[SourceFile], list[Decl], Tree]:
    """Pass 1 on every `(path, text)` file, then names, derived records and refs over
    the tree.  Texts are dropped after pass 1 so that memory stays proportional to the
    records, not to the sources."""
    files: list[SourceFile] = []
    decls: list[Decl] = []
    attribute_specs: list[_AttributeSpec] = []
    for k, (path, text) in enumerate(sources):
        lexed = lex(text)
        files.append(SourceFile(path, module_name(path), _imports(lexed.masked)))
        parser = FileParser(lexed, k)
        decls += parser.parse()
        attribute_specs += [(k, ns, target, spec) for ns, target, spec in parser.additive_attributes]
    _name_instances(files, decls)
    table = _translations(Tree(files, decls), decls, attribute_specs)
    decls = _derive_additive(decls, table)
    tree = Tree(files, (d for d in decls if d.alias is None))
    for d in decls:
        if d.alias is not None:
            _finish_alias(tree, d)
            tree.add(d)
    for d in decls:
        if d.derived_from is None:
            if d.order == 0:
                tree.forget()
            d.refs = _resolve_refs(tree, d)
    originals = {d.name: d for d in decls if d.derived_from is None}
    for d in decls:
        if d.alias is None and d.derived_from in originals:
            d.refs = sorted({table.get(r, r) for r in originals[d.derived_from].refs} - {d.name})
    return files, decls, tree


RECORD_FIELDS = ("name", "kind", "module", "path", "line", "end_line", "signature", "docstring",
                 "attributes", "modifiers", "namespace", "opens", "opens_scoped", "fields",
                 "constructors", "refs", "source", "commit", "url", "attribute_args", "derived_from")


def to_record(d: Decl, f: SourceFile, tree: Tree, source: str, url_base: str) -> dict:
    """The JSON record of a finished declaration, fields in the shared corpora's order."""
    opens = list(dict.fromkeys(tree.open_name(w, ns) for w, ns in d.opens))
    scoped = list(dict.fromkeys(tree.open_name(w, ns) for w, ns in d.opens_scoped))
    url = f"{url_base}{f.path}#L{d.line}-L{d.end_line}" if url_base else ""
    values = {
        "name": d.name, "kind": d.kind, "module": f.module, "path": f.path, "line": d.line,
        "end_line": d.end_line, "signature": d.signature, "docstring": d.docstring,
        "attributes": d.attributes, "modifiers": d.modifiers, "namespace": d.namespace, "opens": opens,
        "opens_scoped": scoped, "fields": d.fields, "constructors": d.constructors, "refs": d.refs,
        "source": source, "commit": "", "url": url, "attribute_args": d.attribute_args,
        "derived_from": d.derived_from,
    }
    return {k: values[k] for k in RECORD_FIELDS}


@contextmanager
def _without_cyclic_gc() -> Iterator[None]:
    """Millions of small acyclic objects make the cyclic collector rescan the heap over
    and over (it doubles the run time on Mathlib); reference counting frees them anyway."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def parse_lean_tree(root: Path, source: str = "local", url_base: str = "") -> list[dict]:
    """Records for every declaration of the `.lean` files under `root`, in file order
    (files sorted by path).  `url` is `url_base + path + "#L<line>-L<end_line>"` when
    `url_base` is given (e.g. `https://github.com/o/r/blob/<sha>/`), else empty."""
    root = Path(root)
    sources = ((p.relative_to(root).as_posix(), p.read_text(encoding="utf-8")) for p in lean_files(root))
    with _without_cyclic_gc():
        files, decls, tree = parse_sources(sources)
        return [to_record(d, files[d.file], tree, source, url_base) for d in decls]


def parse_lean_to_jsonl(root: Path, out: Path, source: str = "local", url_base: str = "") -> int:
    """Parse `root` and write one JSON line per record to `out`; returns the count."""
    records = parse_lean_tree(root, source, url_base)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    return len(records)
