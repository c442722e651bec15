"""Parse a tree of Lean 4 sources into declaration records, without a Lean toolchain.

The records have the fields of the shared Lean corpora (`../shared/corpora/lean/*.jsonl.gz`,
documented in their README) plus `attribute_args` (the full text of each attribute item),
`derived_from` and `derived_by` (for records Lean makes from another declaration: `alias`es
and the declarations attributes generate) and `deprecated`. Parsing is layout based, as
Mathlib-style sources allow:

1. each file is lexed (`syntax.lex`): comments, strings and char literals are blanked out
   (doc comments and module docs are remembered), so keywords inside comments or strings are
   never read;
2. its commands are read in order, with their scopes and `open`s (`commands`);
3. over the whole tree: unnamed instances are named (`instance_names`), the declarations that
   attributes generate are added, nested ones too (`generators`: `to_additive`, `to_dual`,
   `to_fun`, `reassoc`, ...), then `alias`es (with what attributes generate from them), and
   identifier tokens are resolved to the declarations of the tree (`refs`).

Known approximations (beyond those of `instance_names`, `generators` and `expr`):

* refs: locals are recognised by syntax (binders, `fun`/`∀`/`∃`, `intro`/`obtain`/`have`/...,
  pattern variables; flow-insensitive), tactic names by layout; ambiguous names at root level
  keep every visible match; all imports are treated as re-exported; the module system's
  implicit privacy is not modelled;
* translations: `(reorder := ...)` is ignored, statements are translated as text;
* instance names: Lean's `_1` suffix for a taken name is applied within the file only;
* hidden directories (`.lake`, `.git`) and a top-level `lakefile.lean` are skipped.
"""

from __future__ import annotations

import gc
import gzip
import json
import re
from contextlib import contextmanager
from multiprocessing import get_context
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from search import config
from search.corpus.lean.attributes import AttributeItem, deprecation, parse_item
from search.corpus.lean.commands import FileParser, attribute_names
from search.corpus.lean.decl import Decl, SourceFile, top_level_colon
from search.corpus.lean.derived import fresh_name
from search.corpus.lean.generators import DICTIONARIES, TRANSLATION_MODULES, Context, expand, generated, translation_table
from search.corpus.lean.guess_name import DEFINED_IN as GUESS_NAME_MODULE
from search.corpus.lean.guess_name import NameDictionary, read_dictionary, read_end_capitals
from search.corpus.lean.instance_names import instance_name
from search.corpus.lean.project import LeanProject, open_lean_project
from search.corpus.lean.refs import Tree
from search.corpus.lean.simps import SimpsTable
from search.corpus.lean.syntax import IDENT_PATTERN, clean_name, lex, split_name, top_level


def module_name(path: str) -> str:
    """`Foo/Bar.lean` -> `Foo.Bar`."""
    return path.removesuffix(".lean").replace("/", ".")


_IMPORT_RE = re.compile(rf"^(?:public\s+)?(?:meta\s+)?import\s+(?:all\s+)?({IDENT_PATTERN})", re.MULTILINE)


def _imports(masked: str) -> list[str]:
    return [clean_name(m.group(1)) for m in _IMPORT_RE.finditer(masked)]


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


#: An `attribute [items] target` command: file, namespace, the target as written, items, docs.
_AttributeCommand = tuple[int, str, str, list[str], list["str | None"]]


def _items(d: Decl) -> list[tuple[str, str | None]]:
    """The attribute items `d` is tagged with: written on it, nested in those that apply their
    `(attr := ...)` to it too, and given by later `attribute [...]` commands."""
    return expand(d.attribute_args, d.attribute_docs) + expand(*zip(*d.later_items)) if d.later_items else \
        expand(d.attribute_args, d.attribute_docs)


def _attach_commands(tree: Tree, commands: list[_AttributeCommand]) -> None:
    """Give each `attribute [...] name` command's items to the declaration it names."""
    for file, namespace, written, items, docs in commands:
        viewer = Decl(None, "", file, float("inf"), namespace=namespace)
        hits = tree.resolve(written, viewer, *tree.context(viewer))
        if hits:
            hits[0].later_items += zip(items, docs)


def _translations(decls: list[Decl], context: Context) -> dict[str, dict[str, str]]:
    """Per translating attribute, source -> translated full name for every declaration it
    tags (the names a translated namespace takes: `Monoid` -> `AddMonoid`)."""
    named: dict[str, list[tuple[str, AttributeItem, NameDictionary]]] = {word: [] for word in DICTIONARIES}
    for d in decls:
        if d.name:
            for item, doc in _items(d):
                parsed = parse_item(item, doc)
                if parsed.word in named:
                    named[parsed.word].append((d.name, parsed, context.dictionary(parsed.word, d)))
    return {word: translation_table(entries) for word, entries in named.items()}


def _generate(source: Decl, context: Context) -> list[Decl]:
    """The declarations `source`'s attributes generate, each followed by those it generates in turn."""
    out: list[Decl] = []
    for made, word in generated(source, _items(source), context):
        decl = replace(
            source, name=made.name, kind=made.kind or source.kind, order=source.order + 0.5,
            docstring=made.doc, sig_rest=made.sig_rest, attributes=attribute_names(made.items),
            attribute_args=list(made.items), attribute_docs=[], later_items=[], fields=[], constructors=[],
            candidates=[], alias=None, derived_from=source.name, derived_by=word, refs=[], value="",
            variables=source.variables if made.variables is None else made.variables,
        )
        decl.signature = f"{decl.kind} {_relative(decl.name, source.namespace)}{made.sig_rest}"
        out += [decl, *_generate(decl, context)]
    return out


def _relative(name: str, namespace: str) -> str:
    return name[len(namespace) + 1:] if namespace and name.startswith(namespace + ".") else name


def _finish_alias(tree: Tree, d: Decl) -> None:
    """Resolve an alias's target; take its kind when it is not a theorem (an alias of a
    `def` is a `def`), its statement (split `A ↔ B` for `alias ⟨mp, mpr⟩`), and, without a doc
    comment of its own, the docstring Lean gives it (`**Alias** of `target`.`)."""
    hits = tree.resolve(d.alias.target, d, *tree.context(d))
    target = hits[0] if hits else None
    d.derived_from = target.name if target else clean_name(d.alias.target)
    d.derived_by = "alias"
    d.refs = [target.name] if target else []
    if not d.docstring:
        direction = {"mp": "the forward direction of ", "mpr": "the reverse direction of "}.get(d.alias.direction, "")
        d.docstring = f"**Alias** of {direction}`{d.derived_from}`."
    if target is None:
        return
    if target.kind not in ("theorem", "lemma", "instance"):
        d.kind = target.kind
    d.sig_rest = _alias_statement(target.sig_rest, d.alias.direction)
    d.variables = target.variables
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


def _derived_refs(d: Decl, source: Decl, translations: dict[str, dict[str, str]]) -> list[str]:
    """A generated declaration refers to what its source does, translated by a translating
    attribute (`mul_comm`'s refs become `add_comm`'s); any other also refers to its source."""
    table = translations.get(d.derived_by or "")
    refs = {table.get(r, r) for r in source.refs} if table is not None else {*source.refs, source.name}
    return sorted(refs - {d.name})


def _read_dictionaries(module: str, code: str, dictionaries: dict[str, NameDictionary]) -> None:
    """Take the translation dictionaries a tree defines (Mathlib's `Translate` sources) in place
    of the copies kept here."""
    if module == GUESS_NAME_MODULE and (end_capitals := read_end_capitals(code)):
        for word, dictionary in dictionaries.items():
            dictionaries[word] = replace(dictionary, end_capitals=end_capitals, _cache={})
    for word, defined_in in TRANSLATION_MODULES.items():
        if module == defined_in:
            dictionaries[word] = read_dictionary(code, dictionaries[word])


@dataclass
class _ReadFile:
    """What pass 1 makes of one file: the file, its declarations, its `attribute [...]` and
    `initialize_simps_projections` commands, and its code when it defines translation
    dictionaries (Mathlib's `Translate` sources)."""

    file: SourceFile
    decls: list[Decl]
    commands: list[_AttributeCommand]
    simps_rules: list[tuple[int, str, str, str]]
    dictionary_code: str


def _read_file(item: tuple[int, str, str]) -> _ReadFile:
    """Pass 1 on one file (run in worker processes for a large tree)."""
    k, path, text = item
    lexed = lex(text)
    parser = FileParser(lexed, k)
    decls = parser.parse()
    module = module_name(path)
    defines = module == GUESS_NAME_MODULE or module in TRANSLATION_MODULES.values()
    return _ReadFile(SourceFile(path, module, _imports(lexed.masked), lexed.module_docs, parser.dual_hints),
                     decls, [(k, *c) for c in parser.attribute_commands],
                     [(k, *r) for r in parser.simps_rules], lexed.code if defines else "")


def _read_files(sources: Iterable[tuple[str, str]], workers: int) -> Iterator[_ReadFile]:
    """Pass 1 on every file, in order: in `workers` processes when more than one (each file is
    read on its own; `spawn`, so that no lock a thread of the caller holds is copied)."""
    items = ((k, path, text) for k, (path, text) in enumerate(sources))
    if workers < 2:
        yield from map(_read_file, items)
        return
    with get_context("spawn").Pool(workers) as pool:
        yield from pool.imap(_read_file, items, chunksize=16)


def parse_sources(sources: Iterable[tuple[str, str]], workers: int = 1) -> tuple[list[SourceFile], list[Decl], Tree]:
    """Pass 1 on every `(path, text)` file (in `workers` processes), then names, generated
    declarations, aliases and refs over the tree. Texts are dropped after pass 1 so that
    memory stays proportional to the records, not to the sources."""
    files: list[SourceFile] = []
    written: list[Decl] = []
    commands: list[_AttributeCommand] = []
    simps_rules: list[tuple[int, str, str, str]] = []
    dictionaries = dict(DICTIONARIES)
    for read in _read_files(sources, workers):
        files.append(read.file)
        written += read.decls
        commands += read.commands
        simps_rules += read.simps_rules
        if read.dictionary_code:
            _read_dictionaries(read.file.module, read.dictionary_code, dictionaries)
    _name_instances(files, written)
    declared = Tree(files, (d for d in written if d.alias is None))
    _attach_commands(declared, commands)
    context = Context(dictionaries=dictionaries, hints={k: f.dual_hints for k, f in enumerate(files) if f.dual_hints},
                      simps=SimpsTable(declared, written, simps_rules))
    context.translations = _translations(written, context)
    staged = [g for d in written for g in ([d] if d.alias else [d, *_generate(d, context)])]
    tree = Tree(files, (d for d in staged if d.alias is None))
    decls: list[Decl] = []
    for d in staged:
        decls.append(d)
        if d.alias is not None:
            _finish_alias(tree, d)
            tree.add(d)
            for made in _generate(d, context):
                tree.add(made)
                decls.append(made)
    for d in decls:
        if d.derived_from is None:
            if d.order == 0:
                tree.forget()
            d.refs = _resolve_refs(tree, d)
    by_name = {d.name: d for d in decls if d.derived_from is None or d.alias is not None}
    for d in decls:
        source = by_name.get(d.derived_from or "")
        if d.alias is None and d.derived_by not in (None, "irreducible_def") and source is not None:
            d.refs = _derived_refs(d, source, context.translations)
    return files, decls, tree


RECORD_FIELDS = ("name", "kind", "module", "path", "line", "end_line", "signature", "docstring",
                 "attributes", "modifiers", "namespace", "opens", "opens_scoped", "fields",
                 "constructors", "refs", "source", "commit", "url", "attribute_args", "derived_from",
                 "derived_by", "deprecated", "value", "variables")


def to_record(d: Decl, f: SourceFile, tree: Tree, source: str, url_base: str, commit: str = "") -> dict:
    """The JSON record of a finished declaration, fields in the shared corpora's order, then
    what this parser adds: what a derived declaration comes from and what made it, and its
    deprecation (`{"since", "use", "message"}`; an alias is replaced by its target), its value,
    and the `variable` binders its statement uses."""
    opens, scoped = list(tree.opened(d.opens)), list(tree.opened(d.opens_scoped))
    url = f"{url_base}{f.path}#L{d.line}-L{d.end_line}" if url_base else ""
    deprecated = deprecation([item for item, _ in _items(d)])
    if deprecated is not None and deprecated.use is not None:
        hits = tree.resolve(deprecated.use, d, *tree.context(d))
        deprecated = replace(deprecated, use=hits[0].name if hits else deprecated.use)
    elif deprecated is not None and d.derived_by == "alias":
        deprecated = replace(deprecated, use=d.derived_from)
    values = {
        "name": d.name, "kind": d.kind, "module": f.module, "path": f.path, "line": d.line,
        "end_line": d.end_line, "signature": d.signature, "docstring": d.docstring,
        "attributes": d.attributes, "modifiers": d.modifiers, "namespace": d.namespace, "opens": opens,
        "opens_scoped": scoped, "fields": d.fields, "constructors": d.constructors, "refs": d.refs,
        "source": source, "commit": commit, "url": url, "attribute_args": d.attribute_args,
        "derived_from": d.derived_from, "derived_by": d.derived_by,
        "deprecated": deprecated.to_json() if deprecated else None, "value": d.value,
        "variables": d.variables,
    }
    return {k: values[k] for k in RECORD_FIELDS}


@contextmanager
def without_cyclic_gc() -> Iterator[None]:
    """Millions of small acyclic objects make the cyclic collector rescan the heap over
    and over (it doubles the run time on Mathlib); reference counting frees them anyway. Used
    while a tree is parsed and while its rows become statements (`search/corpus/formats.py`)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


#: Files from which a project is read by several processes (fewer are read faster by one).
PARALLEL_FROM = 200


@dataclass
class LeanTree:
    """What a tree of Lean sources holds for search: one record per declaration (written or
    generated), and each module's doc comments (`/-! ... -/`), by module name."""

    records: list[dict]
    module_docs: dict[str, list[str]]


def parse_lean_project(project: LeanProject, source: str = "local", url_base: str = "",
                       libraries: Sequence[str] = ()) -> LeanTree:
    """Records for every declaration of a project's modules (only those of the `libraries`
    when given), in file order (files sorted by path). `url` is
    `url_base + path + "#L<line>-L<end_line>"` when `url_base` is given (e.g.
    `https://github.com/o/r/blob/<sha>/`), else empty."""
    workers = config.PARSE_WORKERS if len(project.files) >= PARALLEL_FROM else 1
    with without_cyclic_gc():
        files, decls, tree = parse_sources(project.modules(libraries), workers)
        records = [to_record(d, files[d.file], tree, source, url_base, project.commit) for d in decls]
    return LeanTree(records, {f.module: f.module_docs for f in files if f.module_docs})


def parse_lean_tree(path: Path, source: str = "local", url_base: str = "") -> LeanTree:
    """`parse_lean_project` on the project at `path`, a folder or an archive of Lean sources."""
    return parse_lean_project(open_lean_project(Path(path)), source, url_base)


def parse_lean_to_jsonl(root: Path, out: Path, source: str = "local", url_base: str = "") -> int:
    """Parse `root` and write one JSON line per record to `out`, and the module docs beside it
    (`<stem>_modules.jsonl.gz`, the companion the `lean-jsonl` format reads); returns the
    count of records."""
    tree = parse_lean_tree(root, source, url_base)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in tree.records)
    with gzip.open(out.with_name(out.name.split(".")[0] + "_modules.jsonl.gz"), "wt", encoding="utf-8") as fh:
        fh.writelines(json.dumps({"module": m, "docs": docs, "source": source}, ensure_ascii=False) + "\n"
                      for m, docs in tree.module_docs.items())
    return len(tree.records)
