"""Theorem-like statements from the LaTeX sources of a book (Stacks, Open Logic, HoTT, ...).

This is the TheoremSearch paper's regex-based route, not a TeX run: each text's own theorem
declarations decide which environments count and what kind they are (see `_envs`); for each
environment we keep its `[note]`, `\\label`, body, the chapter and section in force, file and
line. Simple author macros are expanded in the body; `\\ref`/`\\cite` stay as text and `\\ref`s
to other statements of the same text become `deps`.

Identifiers (unique within a source, stable for a given corpus commit):
- Stacks Project (an archive with `tags/tags`): a statement with a tag is `stacks:<TAG>`
  (name = tag, url = the tag's page); labels are per chapter file, so a label is
  `<file stem>-<\\label>` exactly as `tags/tags` and cross-chapter `\\ref`s write it.
- other texts: `<source>:<label>` (name = label); Open Logic's `\\ollabel{x}` is expanded as
  its class does, to `<part>:<chapter>:<section>:x` from the file's `\\olfileid`.
- without a label: `<source>:<file path without .tex>/<kind>-<n>`, the n-th environment of
  that kind in the file (e.g. `hott:basics/lemma-3`).
- a repeated id gets `~2`, `~3`, ... in reading order and `meta["duplicate_of"]`.
Stacks statements also get `meta["number"]` ("33.25.6"): the chapter's place in `chapters.tex`,
the section, and the subsection counter that the Stacks preamble shares between subsections
and all its theorem environments. Other books number by their master file (not read here).
URLs point at the upstream file and line at the commit listed in the `manifest.json` beside the
archive (a text without a manifest entry gets no url).
"""

from __future__ import annotations

import csv
import json
import logging
import re
import tarfile
import unicodedata
from bisect import bisect_right
from collections import Counter
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath

from search import config
from search.corpus._envs import Environment, EnvironmentTable, environment_table
from search.corpus._tex import (
    Macro,
    collect_macros,
    expand_macros,
    read_argument,
    read_arguments,
    read_group,
    read_optional,
    skip_optionals,
    skip_spaces,
    simple_macros,
    strip_comments,
)
from search.corpus._tex2text import latex_to_text, latex_to_text_many
from search.record import Statement

log = logging.getLogger(__name__)

TAGS_PATH = "tags/tags"
_ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".tar")

#: Headings the scanner follows: command -> (level, number of `{...}` arguments, title last).
_HEADINGS = {
    "title": ("chapter", 1), "chapter": ("chapter", 1), "olchapter": ("chapter", 3),
    "section": ("section", 1), "olsection": ("section", 1), "subsection": ("subsection", 1),
    "olfileid": ("fileid", 3),
}  # fmt: skip
_EVENT = re.compile(
    r"\\begin\s*\{([^{}]+)\}|\\(" + "|".join(_HEADINGS) + r")(?![A-Za-z])\*?"
    r"|\\((?:re)?newenvironment|(?:re)?newcommand|providecommand|[gex]?def)(?![A-Za-z])\*?"
    r"|\\end\s*\{document\}"
)
_PARAMETERS = re.compile(r"\s*(?:#\d\s*)*")
_LABEL_OR_ENV = re.compile(r"\\(?:begin|end)\s*\{[^{}]*\}|\\(ol)?label\s*\{([^{}]*)\}")
_REFERENCE = re.compile(
    r"\\(ref|eqref|cref|Cref|autoref|pageref|cpageref|hyperref|olref|Olref)(?![A-Za-z])\*?"
)
_STACKS_CHAPTER = re.compile(r"\\hyperref\[([A-Za-z0-9-]+)-section-phantom\]")
_TOKEN_SHORTHAND = re.compile(r"!!(\^?)(a?)\{([^{}]*)\}(s?)")
_USE_TOKEN = re.compile(r"\\usetoken\s*\{([sSpPaA])\}\s*\{([^{}]*)\}")


# --------------------------------------------------------------------------------------------
# Reading a text


def source_name(path: Path) -> str:
    """The default source of an archive or folder: `stacks.tar.gz` -> `stacks`."""
    name = path.name
    for suffix in _ARCHIVE_SUFFIXES:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def _wanted(path: str) -> bool:
    return path.endswith(".tex") or path == TAGS_PATH or path.endswith("/" + TAGS_PATH)


def _without_root(files: dict[str, str]) -> dict[str, str]:
    """Drop the single top folder an archive wraps its text in (`stacks/algebra.tex`)."""
    roots = {name.split("/", 1)[0] for name in files}
    if len(roots) == 1 and all("/" in name for name in files):
        return {name.split("/", 1)[1]: text for name, text in files.items()}
    return files


def _read_archive(path: Path) -> dict[str, str]:
    files = {}
    with tarfile.open(path) as archive:
        for member in archive:
            if member.isfile() and _wanted(member.name):
                data = archive.extractfile(member).read()
                files[member.name.removeprefix("./")] = data.decode("utf-8", errors="replace")
    return files


def _read_directory(path: Path) -> dict[str, str]:
    return {
        file.relative_to(path).as_posix(): file.read_text("utf-8", errors="replace")
        for file in path.rglob("*")
        if file.is_file() and _wanted(file.as_posix())
    }


def read_text_files(path: Path) -> dict[str, str]:
    """The `.tex` files (and Stacks' `tags/tags`) of a folder or tar archive, by path."""
    files = _read_directory(path) if path.is_dir() else _without_root(_read_archive(path))
    return {name: files[name] for name in sorted(files)}


def manifest_entry(path: Path, source: str) -> dict:
    """The `manifest.json` entry (upstream, commit) of `source` beside the archive or folder."""
    for folder in (path, path.parent) if path.is_dir() else (path.parent,):
        manifest = folder / "manifest.json"
        if manifest.is_file():
            entry = json.loads(manifest.read_text("utf-8")).get(source)
            if entry:
                return entry
    return {}


def read_stacks_tags(text: str) -> dict[str, str]:
    """`tags/tags` (`TAG,full_label` lines after `#` comments) as full label -> tag."""
    rows = csv.reader(line for line in text.splitlines() if line and not line.startswith("#"))
    return {row[1].strip(): row[0].strip() for row in rows if len(row) == 2}


def _token_words(word: str, capital: bool, article: bool, plural: bool) -> str:
    text = word + ("s" if plural else "")
    if article:
        text = ("an " if word[:1] in "aeiou" else "a ") + text
    return text[:1].upper() + text[1:] if capital else text


def _use_token(match: re.Match) -> str:
    form, word = match.group(1), match.group(2)
    if form in "aA":
        article = "an" if word[:1] in "aeiou" else "a"
        return article.capitalize() if form == "A" else article
    return _token_words(word, form.isupper(), False, form in "pP")


def resolve_tokens(text: str) -> str:
    """Open Logic's token shorthand, with each token read as its own name (the default).

    `!!{formula}` -> formula, `!!a{formula}` -> a formula, `!!^{tableau}s` -> Tableaus,
    `\\usetoken{S}{derivability}` -> Derivability. Irregular plurals and a book's renamed
    tokens (set in the class configuration, not in the text) are approximated.
    """
    if "!!" not in text and "\\usetoken" not in text:
        return text
    text = _TOKEN_SHORTHAND.sub(
        lambda m: _token_words(m.group(3), bool(m.group(1)), bool(m.group(2)), bool(m.group(4))),
        text,
    )
    return _USE_TOKEN.sub(_use_token, text)


# --------------------------------------------------------------------------------------------
# Scanning files


@dataclass
class _Block:
    """One theorem-like environment as found in a file, before naming."""

    env: str
    kind: str
    note: str
    body: str
    path: str
    line: int
    end_line: int
    closed: bool
    chapter: str
    chapter_file: str
    section: str
    fileid: tuple[str, ...]
    ordinal: int = 0
    number: str = ""
    label: str = ""
    comments: dict[str, str] = field(default_factory=dict)


@dataclass
class _Position:
    """Headings in force while scanning a file, plus the Stacks counters."""

    chapter: str
    chapter_file: str
    section: str = ""
    fileid: tuple[str, ...] = ()
    section_number: int = 0
    counter: int = 0


class _Lines:
    """Offset -> 1-based line number."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def __call__(self, offset: int) -> int:
        return bisect_right(self.starts, offset)


@lru_cache(maxsize=None)
def _begin_end(env: str) -> re.Pattern:
    return re.compile(r"\\(begin|end)\s*\{" + re.escape(env) + r"\}")


def _find_end(text: str, env: str, pos: int) -> tuple[int, int] | None:
    """(body end, index after `\\end{env}`) for the environment opened before `pos`."""
    depth = 1
    for match in _begin_end(env).finditer(text, pos):
        depth += 1 if match.group(1) == "begin" else -1
        if depth == 0:
            return match.start(), match.end()
    return None


def _unclosed_end(text: str, pos: int, table: EnvironmentTable) -> int:
    """Where a body missing its `\\end` stops: the next statement, heading or end of text."""
    for match in _EVENT.finditer(text, pos):
        if match.group(3):
            continue
        if match.group(1) is None or table.get(match.group(1).strip()):
            return match.start()
    return len(text)


def _skip_definition(text: str, pos: int, command: str) -> int:
    """Index after a macro or environment definition, whose code is not text to scan."""
    name = read_argument(text, pos)
    if name is None:
        return pos
    _, pos = skip_optionals(text, name[1])
    pos = _PARAMETERS.match(text, pos).end()
    for _ in range(2 if command.endswith("environment") else 1):
        group = read_group(text, skip_spaces(text, pos))
        if group is None:
            break
        pos = group[1]
    return pos


def _heading(text: str, pos: int, command: str) -> tuple[list[str], int] | None:
    _, pos = skip_optionals(text, pos)
    return read_arguments(text, pos, _HEADINGS[command][1])


@lru_cache(maxsize=4096)
def _title_text(title: str) -> str:
    """A heading or note as text: its math too (`$\\operatorname{Spec}$` is "Spec"); a formula
    that pylatexenc would render as nothing (a command it does not know) is written as its
    commands' names, so that no math is lost from a title."""
    def kept(formula: re.Match[str]) -> str:
        if latex_to_text(formula.group(0)).strip():
            return formula.group(0)
        return " ".join(re.findall(r"[A-Za-z0-9]+", formula.group(0)))

    return unicodedata.normalize("NFC", " ".join(latex_to_text(re.sub(r"\$[^$]+\$", kept, title)).split()))


def _heading_text(tex: str, macros: dict[str, Macro]) -> str:
    """A heading or note as written, with the author's macros expanded, as text."""
    return _title_text(expand_macros(tex, macros)) if tex else ""


def _first_chapter(text: str) -> str | None:
    for match in _EVENT.finditer(text):
        command = match.group(2)
        if command and _HEADINGS[command][0] == "chapter":
            heading = _heading(text, match.end(), command)
            if heading:
                return heading[0][-1]
    return None


def _directory_chapters(texts: dict[str, str]) -> dict[str, tuple[str, str]]:
    """Folder -> (chapter, file stem) from its index file `<folder>/<folder>.tex`.

    Open Logic keeps a chapter's sections in separate files beside the chapter file; a file
    that opens no chapter itself belongs to the chapter of its folder's index file.
    """
    chapters = {}
    for path, text in texts.items():
        pure = PurePosixPath(path)
        if pure.parent.name == pure.stem:
            title = _first_chapter(text)
            if title is not None:
                chapters[pure.parent.as_posix()] = (title, pure.stem)
    return chapters


def _move(position: _Position, command: str, args: list[str], stem: str) -> None:
    level = _HEADINGS[command][0]
    if level == "fileid":
        position.fileid = tuple(a.strip() for a in args)
    elif level == "chapter":
        position.chapter, position.chapter_file, position.section = args[-1], stem, ""
    elif level == "section":
        position.section = args[-1]
        position.section_number += 1
        position.counter = 0
    else:
        position.counter += 1


@dataclass(frozen=True)
class _Opened:
    """Where an environment's parts lie: note, body span, end of `\\end{env}`."""

    note: str
    start: int
    stop: int
    end: int
    closed: bool


def _open_block(text: str, match: re.Match, env: Environment, table: EnvironmentTable) -> _Opened:
    """Locate note and body of the environment opened by `match`."""
    pos = match.end()
    if env.args:
        arguments = read_arguments(text, pos, env.args)
        pos = arguments[1] if arguments else pos
    note = ""
    optional = read_optional(text, skip_spaces(text, pos))
    if optional is not None:
        note, pos = optional
    end = _find_end(text, match.group(1), pos)
    if end is None:
        stop = _unclosed_end(text, pos, table)
        return _Opened(note, pos, stop, stop, False)
    return _Opened(note, pos, end[0], end[1], True)


def _scan_file(path: str, text: str, table: EnvironmentTable, position: _Position) -> list[_Block]:
    """Theorem-like environments of one comment-free file, in reading order.

    Scanning resumes inside each body, so a proposition stated inside an example is a
    statement of its own (and also part of the example's body); verbatim and comment
    environments are skipped whole.
    """
    lines, blocks, kinds = _Lines(text), [], Counter()
    stem = PurePosixPath(path).stem
    pos = 0
    while (match := _EVENT.search(text, pos)) is not None:
        pos = match.end()
        if match.group(3):
            pos = _skip_definition(text, pos, match.group(3))
            continue
        if match.group(2):
            heading = _heading(text, pos, match.group(2))
            if heading:
                _move(position, match.group(2), heading[0], stem)
            continue
        if match.group(1) is None:
            break
        name = match.group(1).strip()
        if table.skipped(name):
            end = _find_end(text, match.group(1), pos)
            pos = end[1] if end else pos
            continue
        env = table.get(name)
        if env is None:
            continue
        opened = _open_block(text, match, env, table)
        pos = opened.start
        kinds[env.kind] += 1
        position.counter += 1
        blocks.append(
            _Block(
                env=name, kind=env.kind, note=opened.note,
                body=text[opened.start : opened.stop], path=path, line=lines(match.start()),
                end_line=lines(opened.end), closed=opened.closed, chapter=position.chapter,
                chapter_file=position.chapter_file, section=position.section,
                fileid=position.fileid, ordinal=kinds[env.kind],
                number=f"{position.section_number}.{position.counter}",
            )
        )  # fmt: skip
    return blocks


def _scan_text(texts: dict[str, str], table: EnvironmentTable) -> list[_Block]:
    """Blocks of all files; a file opening no chapter inherits its folder's (see above)."""
    folders = _directory_chapters(texts)
    blocks = []
    for path, text in texts.items():
        pure = PurePosixPath(path)
        chapter, chapter_file = folders.get(pure.parent.as_posix(), ("", pure.stem))
        blocks += _scan_file(path, text, table, _Position(chapter, chapter_file))
    return blocks


# --------------------------------------------------------------------------------------------
# Labels, references and names


@dataclass(frozen=True)
class _Text:
    """What naming needs to know about the whole text."""

    source: str
    manifest: dict
    stacks_tags: dict[str, str] | None = None
    chapter_numbers: dict[str, int] = field(default_factory=dict)

    @property
    def stacks(self) -> bool:
        return self.stacks_tags is not None


def _describe(source: str, files: dict[str, str], path: Path) -> _Text:
    manifest = manifest_entry(path, source)
    if TAGS_PATH not in files:
        return _Text(source, manifest)
    order = _STACKS_CHAPTER.findall(files.get("chapters.tex", ""))
    numbers = {stem: index for index, stem in enumerate(dict.fromkeys(order), start=1)}
    return _Text(source, manifest, read_stacks_tags(files[TAGS_PATH]), numbers)


@lru_cache(maxsize=64)
def _comment_pattern(names: frozenset[str]) -> re.Pattern:
    alternatives = "|".join(re.escape(name) for name in sorted(names))
    return re.compile(r"\\begin\s*\{(" + alternatives + r")\}(.*?)\\end\s*\{\1\}", re.S)


def _split_comments(body: str, names: frozenset[str]) -> tuple[str, dict[str, str]]:
    """Remove comment-like environments, keeping the text of named ones (Stacks' `reference`,
    `history`) for meta; plain `comment` is the author's scrap and goes."""
    found: dict[str, str] = {}

    def keep(match: re.Match) -> str:
        name, text = match.group(1), " ".join(match.group(2).split())
        if name != "comment":
            found[name] = f"{found[name]} {text}" if name in found else text
        return ""

    return _comment_pattern(names).sub(keep, body), found


def _full_label(text: _Text, block: _Block, label: str, open_logic: bool) -> str:
    if open_logic and len(block.fileid) == 3:
        return ":".join(block.fileid + (label,))
    if text.stacks:
        return f"{PurePosixPath(block.path).stem}-{label}"
    return label


def _take_label(text: _Text, block: _Block) -> None:
    """Move the statement's own `\\label` (the first one outside nested environments) to meta."""
    depth = 0
    for match in _LABEL_OR_ENV.finditer(block.body):
        if match.group(2) is None:
            depth += 1 if match.group().startswith("\\begin") else -1
        elif depth <= 0:
            block.label = _full_label(text, block, match.group(2).strip(), bool(match.group(1)))
            block.body = block.body[: match.start()] + block.body[match.end() :]
            return


def _open_logic_target(fileid: tuple[str, ...], options: list[str], label: str) -> str:
    """`\\olref[a][b][c]{x}` as the class resolves it against the current `\\olfileid`."""
    if len(fileid) != 3:
        return label
    return ":".join((fileid[: 3 - len(options)] + tuple(options))[-3:] + (label,))


def _references(body: str, block: _Block) -> list[str]:
    """Labels referred to in `body`, as written or resolved (Open Logic), in order."""
    labels = []
    for match in _REFERENCE.finditer(body):
        options, pos = skip_optionals(body, match.end())
        command = match.group(1)
        if command == "hyperref":
            labels += options[:1]
            continue
        group = read_group(body, skip_spaces(body, pos))
        if group is None:
            continue
        for label in group[0].split(","):
            label = label.strip()
            if command in ("olref", "Olref"):
                label = _open_logic_target(block.fileid, [o.strip() for o in options], label)
            labels.append(label)
    return labels


def _resolve(text: _Text, block: _Block, label: str, ids: dict[str, str]) -> str | None:
    """Stacks writes `\\ref{lemma-x}` within a chapter and `\\ref{algebra-lemma-x}` across."""
    if text.stacks:
        local = ids.get(f"{PurePosixPath(block.path).stem}-{label}")
        if local:
            return local
    return ids.get(label)


def _slug(kind: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", kind).strip("-")


def _base_id(text: _Text, block: _Block) -> tuple[str, str]:
    """(id, name) before duplicates are told apart."""
    tag = (text.stacks_tags or {}).get(block.label)
    if tag:
        name = tag
    elif block.label:
        name = block.label
    else:
        name = f"{block.path.removesuffix('.tex')}/{_slug(block.kind)}-{block.ordinal}"
    return f"{text.source}:{name}", name


def _url(text: _Text, block: _Block, tag: str | None) -> str:
    if tag:
        return config.STACKS_TAG_URL.format(tag=tag)
    if not text.manifest.get("upstream") or not text.manifest.get("commit"):
        return ""
    upstream = text.manifest["upstream"].removesuffix(".git").rstrip("/")
    return f"{upstream}/blob/{text.manifest['commit']}/{block.path}#L{block.line}"


# --------------------------------------------------------------------------------------------
# Statements


def _meta(text: _Text, block: _Block, tag: str | None) -> dict:
    meta = {
        "chapter": block.chapter, "section": block.section, "label": block.label,
        "note": block.note, "file": block.path, "environment": block.env, **block.comments,
    }  # fmt: skip
    if text.stacks:
        chapter_number = text.chapter_numbers.get(PurePosixPath(block.path).stem)
        meta["number"] = f"{chapter_number}.{block.number}" if chapter_number else block.number
        if tag:
            meta["tag"] = tag
    if not block.closed:
        meta["unterminated"] = True
    return meta


def _assign_ids(text: _Text, blocks: list[_Block]) -> list[tuple[str, str, str | None]]:
    """(id, name, duplicate_of) per block; repeats become `<id>~2`, `<id>~3`, ..."""
    seen: Counter[str] = Counter()
    named = []
    for block in blocks:
        ident, name = _base_id(text, block)
        seen[ident] += 1
        if seen[ident] == 1:
            named.append((ident, name, None))
        else:
            named.append((f"{ident}~{seen[ident]}", f"{name}~{seen[ident]}", ident))
    return named


def _build_statements(
    text: _Text, blocks: list[_Block], macros: dict[str, Macro], table: EnvironmentTable
) -> list[Statement]:
    """Name, expand, link and render the scanned blocks."""
    for block in blocks:
        block.body, block.comments = _split_comments(block.body, table.comments)
        _take_label(text, block)
        block.note, block.chapter, block.section = (_heading_text(tex, macros) for tex in (block.note, block.chapter, block.section))
    named = _assign_ids(text, blocks)
    ids: dict[str, str] = {}
    for block, (ident, _, _) in zip(blocks, named):
        if block.label:
            ids.setdefault(block.label, ident)
    bodies = [expand_macros(block.body, macros).strip() for block in blocks]
    docs = latex_to_text_many(bodies)
    statements = []
    for block, (ident, name, duplicate_of), body, doc in zip(blocks, named, bodies, docs):
        tag = (text.stacks_tags or {}).get(block.label)
        deps = (_resolve(text, block, label, ids) for label in _references(body, block))
        meta = _meta(text, block, tag)
        if duplicate_of:
            meta["duplicate_of"] = duplicate_of
        statements.append(
            Statement(
                id=ident, source=text.source, kind=block.kind, name=name, statement=body,
                language="latex",
                doc=doc, module=block.chapter_file, path=block.path, line=block.line,
                end_line=block.end_line, url=_url(text, block, tag), package=block.chapter,
                group=ident, deps=list(dict.fromkeys(d for d in deps if d and d != ident)),
                aliases=[block.label] if tag else [], meta=meta,
            )
        )  # fmt: skip
    return statements


def parse_latex(path: Path, source: str | None = None) -> list[Statement]:
    """Theorem-like statements of the LaTeX text in a folder or `.tar.gz` (read in memory)."""
    path = Path(path)
    source = source or source_name(path)
    files = read_text_files(path)
    texts = {
        name: resolve_tokens(strip_comments(body))
        for name, body in files.items()
        if name.endswith(".tex")
    }
    macros = collect_macros(list(texts.values()))
    table = environment_table(list(texts.values()), macros)
    blocks = _scan_text(texts, table)
    text = _describe(source, files, path)
    statements = _build_statements(text, blocks, simple_macros(macros), table)
    duplicates = sum("duplicate_of" in s.meta for s in statements)
    unterminated = sum("unterminated" in s.meta for s in statements)
    log.info(
        "%s: %d statements from %d files (%d duplicate ids renamed, %d without \\end)",
        source, len(statements), len(texts), duplicates, unterminated,
    )  # fmt: skip
    return statements


def parse_latex_to_jsonl(path: Path, out: Path, source: str | None = None) -> int:
    """Write `parse_latex` records to JSON lines, one `Statement` (all its fields) a line."""
    statements = parse_latex(path, source)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as handle:
        for statement in statements:
            handle.write(json.dumps(asdict(statement), ensure_ascii=False) + "\n")
    return len(statements)
