"""The pattern index: every Lean statement as a tree of the constants it mentions.

Loogle answers a pattern (`_ * (_ ^ _)`, `⊢ tsum _ = _ * tsum _`) with two indexes over the
elaborated types of a Lean environment: which declarations mention which constant, and the
types themselves, matched one by one. Here the types are the statements as written, read by
`expr` (`Reading.TERMS`: notation desugared through the tables of `notation`), with every
name resolved as Lean would resolve it in that declaration (`Resolver`). The trees are kept
flat, so that `search.engine.patterns` matches a pattern against every candidate statement at
once with numpy instead of one Python call per subterm.

Files under `patterns/` of an index:

- `symbols.json`: the symbols, `c:NAME` (a constant), `s:Prop` (a sort), `n:2` (a numeral);
- `nodes.npy` (int32): the trees of all statements in prefix order, one after the other. A
  node is `VAR_CODE` (a term nothing is known of), `APP` (then the function, then the
  argument), `PI` (then the domain, then the body), `FIRST_SYMBOL + k` (symbol `k`), or
  `-(j + 1)`, the statement's `j`-th distinct variable;
- `ends.npy` (int32): for each node, the position just past its subtree;
- `offsets.npy` (int64): statement `r` is `nodes[offsets[r]:offsets[r + 1]]` (empty when the
  record is no Lean statement);
- `postings.npy`, `posting_offsets.npy` (int32, int64): for each symbol, the statements that
  mention it, in order; `occurrences.npy`, `occurrence_offsets.npy`: its node positions;
- `constants.npy` (int32): how many distinct constants each statement mentions.
"""

from __future__ import annotations

import json
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from search.corpus.lean import notation
from search.corpus.lean.expr import Expr, parse_declaration
from search.corpus.lean.syntax import drop_universes, split_name, term_tokens
from search.index.arrays import load_arrays, save_arrays
from search.record import Statement
from search.text.lean_text import binders_and_type

DIRECTORY = "patterns"
VAR_CODE = 0
APP = 1
PI = 2
FIRST_SYMBOL = 3
#: Constants that notation elaborates to are full names already, never resolved again.
ABSOLUTE: frozenset[str] = notation.elaborated() | {
    "OfNat.ofNat", "Not", "And", "Exists", "ExistsUnique", "Sigma", "Neg.neg", "RingHom.id", "Prod.mk", "List.cons",
    "List.nil", "Insert.insert", "Singleton.singleton", "setOf", "Subtype", "ite", "dite",
    "Finset.filter", "Nat.factorial", "Membership.mem",
}


def statement_term(header: str) -> Expr:
    """A declaration header's statement as one term, `∀ binders, type` (module docstring)."""
    binders, type_ = binders_and_type(drop_universes(header))
    return parse_declaration(term_tokens(binders), term_tokens(type_))


@dataclass(frozen=True)
class Resolver:
    """Names as Lean resolves them inside a declaration: `exp` inside `namespace Real` is
    `Real.exp`.

    A written name `w` of the declaration `A.B.c`, in a file that opened `O`, is the first of
    `A.B.w`, `A.w`, `w`, `O.w` to which the corpus resolved a reference of the declaration (its
    `deps`); else the first of them that is a known constant (a record, or a dotted name some
    statement writes in full, such as Lean core's `List.map`); else a reference of the
    declaration ending in `.w`; else `w` as written. Constants of notation are full names
    (`notation.SCOPED` names those another namespace reads differently).
    """

    known: frozenset[str]

    def resolve(self, written: str, declaration: str, deps: frozenset[str], opens: Sequence[str] = ()) -> str:
        if written in notation.SCOPED:
            namespace, scoped = notation.SCOPED[written]
            if namespace in opens or split_name(declaration)[:1] == [namespace]:
                return scoped
        if written in ABSOLUTE:
            return written
        if written.startswith("_root_."):
            return written[len("_root_."):]
        parts = split_name(declaration)[:-1]
        candidates = [".".join([*parts[:k], written]) for k in range(len(parts), 0, -1)] + [written]
        candidates += [f"{namespace}.{written}" for namespace in opens]
        for found in (next((c for c in candidates if c in deps), None),
                      next((c for c in candidates if c in self.known), None)):
            if found is not None:
                return found
        tail = "." + written
        opened = sorted(d for d in deps if d.endswith(tail))
        return opened[0] if opened else written


@dataclass
class PatternIndex:
    """The flat statement trees of one index and their postings (module docstring)."""

    symbols: list[str]
    nodes: np.ndarray
    ends: np.ndarray
    offsets: np.ndarray
    postings: np.ndarray
    posting_offsets: np.ndarray
    occurrences: np.ndarray
    occurrence_offsets: np.ndarray
    constants: np.ndarray

    def __post_init__(self) -> None:
        #: Symbol -> node code.
        self.code = {symbol: FIRST_SYMBOL + k for k, symbol in enumerate(self.symbols)}

    @classmethod
    def build(cls, statements: Sequence[Statement]) -> "PatternIndex":
        """Parse, resolve and flatten the statement of every Lean record."""
        symbols: dict[str, int] = {}
        nodes = array("i")
        offsets = np.zeros(len(statements) + 1, dtype=np.int64)
        written: list[list[int]] = []
        for position, statement in enumerate(statements):
            codes: list[int] = []
            if statement.formal:
                _flatten(statement_term(statement.statement), symbols, nodes, codes)
            written.append(codes)
            offsets[position + 1] = len(nodes)
        flat = np.frombuffer(nodes, dtype=np.int32).copy()
        names = list(symbols)
        known = frozenset({s.name for s in statements if s.formal}
                          | {n[2:] for n in names if n.startswith("c:") and "." in n})
        _resolve(flat, offsets, statements, written, names, symbols, Resolver(known))
        return cls.from_nodes(_compact(flat, list(symbols)), flat, offsets)

    @classmethod
    def from_nodes(cls, symbols: list[str], nodes: np.ndarray, offsets: np.ndarray) -> "PatternIndex":
        """The index of flat trees: subtree ends, postings and occurrences computed."""
        ends = _ends(nodes)
        records = np.repeat(np.arange(len(offsets) - 1, dtype=np.int32), np.diff(offsets))
        is_symbol = nodes >= FIRST_SYMBOL
        positions = np.flatnonzero(is_symbol).astype(np.int32)
        codes = nodes[positions] - FIRST_SYMBOL
        order = np.argsort(codes, kind="stable")
        occurrence_offsets = np.concatenate(([0], np.cumsum(np.bincount(codes, minlength=len(symbols)))))
        pairs = np.unique(codes.astype(np.int64) * len(offsets) + records[positions])
        posting_codes, posting_records = np.divmod(pairs, len(offsets))
        posting_offsets = np.concatenate(([0], np.cumsum(np.bincount(posting_codes, minlength=len(symbols)))))
        is_constant = np.array([s.startswith("c:") for s in symbols] or [False])[posting_codes]
        constants = np.bincount(posting_records[is_constant], minlength=len(offsets) - 1).astype(np.int32)
        return cls(symbols, nodes, ends, offsets, posting_records.astype(np.int32), posting_offsets,
                   positions[order], occurrence_offsets, constants)

    def save(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "symbols.json").write_text(json.dumps(self.symbols, ensure_ascii=False), encoding="utf-8")
        save_arrays(directory, {name: getattr(self, name) for name in _ARRAYS})

    @classmethod
    def load(cls, directory: Path) -> "PatternIndex":
        symbols = json.loads((directory / "symbols.json").read_text(encoding="utf-8"))
        return cls(symbols, **load_arrays(directory, _ARRAYS, mapped=True))

    def statement(self, position: int) -> np.ndarray:
        """The flat tree of one record (empty when it has none)."""
        return self.nodes[self.offsets[position]:self.offsets[position + 1]]

    def mentioning(self, symbol: str) -> np.ndarray:
        """The records whose statement mentions `symbol`, in order."""
        code = self.code.get(symbol)
        if code is None:
            return np.zeros(0, dtype=np.int32)
        k = code - FIRST_SYMBOL
        return self.postings[self.posting_offsets[k]:self.posting_offsets[k + 1]]

    def occurring(self, code: int) -> np.ndarray:
        """The node positions holding symbol `code`, in order."""
        k = code - FIRST_SYMBOL
        return self.occurrences[self.occurrence_offsets[k]:self.occurrence_offsets[k + 1]]

    def sizes(self, positions: np.ndarray) -> np.ndarray:
        """Node counts of the statements at `positions`."""
        return (self.offsets[positions + 1] - self.offsets[positions]).astype(np.int64)


_ARRAYS = ("nodes", "ends", "offsets", "postings", "posting_offsets", "occurrences", "occurrence_offsets",
           "constants")


def symbol_of(term: Expr) -> str | None:
    """The symbol a leaf stands for (`c:NAME`, `s:Prop`, `n:2`), None for any other node."""
    return f"{term[0]}:{term[1]}" if term[0] in ("c", "s", "n") else None


def _flatten(term: Expr, symbols: dict[str, int], out: array, constants: list[int]) -> None:
    """Append `term` in prefix order; the codes of the constants written go to `constants`."""
    variables: dict[str, int] = {}
    stack = [term]
    while stack:
        node = stack.pop()
        kind = node[0]
        if kind == "a" or kind == "f":
            out.append(APP if kind == "a" else PI)
            stack.append(node[2])
            stack.append(node[1])
        elif kind == "l" or kind == "?":
            out.append(-(variables.setdefault(node[1], len(variables)) + 1))
        elif (symbol := symbol_of(node)) is not None:
            code = symbols.setdefault(symbol, FIRST_SYMBOL + len(symbols))
            out.append(code)
            if kind == "c":
                constants.append(code)
        else:
            out.append(VAR_CODE)


def _resolve(nodes: np.ndarray, offsets: np.ndarray, statements: Sequence[Statement], written: list[list[int]],
             names: list[str], symbols: dict[str, int], resolver: Resolver) -> None:
    """Replace, statement by statement, each constant as written by the name it resolves to."""
    for position, codes in enumerate(written):
        if not codes:
            continue
        statement = statements[position]
        deps = frozenset(d.split(":", 1)[-1] for d in statement.deps)
        lookup = {}
        for code in set(codes):
            name = names[code - FIRST_SYMBOL][2:]
            resolved = resolver.resolve(name, statement.name, deps, statement.meta.get("opens", ()))
            if resolved != name:
                lookup[code] = symbols.setdefault(f"c:{resolved}", FIRST_SYMBOL + len(symbols))
        if lookup:
            part = nodes[offsets[position]:offsets[position + 1]]
            resolved_part = part.copy()
            for old, new in lookup.items():
                resolved_part[part == old] = new
            part[:] = resolved_part


def _compact(nodes: np.ndarray, symbols: list[str]) -> list[str]:
    """Drop the symbols no node holds any more (names as written, before resolution),
    renumbering the nodes in place; the symbols kept, in order."""
    is_symbol = nodes >= FIRST_SYMBOL
    used = np.unique(nodes[is_symbol])
    renumber = np.zeros(FIRST_SYMBOL + len(symbols), dtype=np.int32)
    renumber[used] = FIRST_SYMBOL + np.arange(len(used), dtype=np.int32)
    nodes[is_symbol] = renumber[nodes[is_symbol]]
    return [symbols[code - FIRST_SYMBOL] for code in used.tolist()]


def _ends(nodes: np.ndarray) -> np.ndarray:
    """For each node, the position just past its subtree (APP and PI have two children: the
    first right after them, the second at the first's end)."""
    binary = (nodes == APP) | (nodes == PI)
    ends = np.arange(1, len(nodes) + 1, dtype=np.int32)
    if binary.any():
        values = ends.tolist()
        for i in np.flatnonzero(binary)[::-1].tolist():
            values[i] = values[values[i + 1]]
        ends = np.asarray(values, dtype=np.int32)
    return ends


def terms(index: PatternIndex, positions: Iterable[int]) -> list[Expr | None]:
    """The trees of records back as terms (variables numbered `v0`, `v1`, ...), for reading
    and for checking a matcher against another."""
    out: list[Expr | None] = []
    for position in positions:
        flat = index.statement(position).tolist()
        out.append(_unflatten(flat, index.symbols) if flat else None)
    return out


def _unflatten(flat: list[int], symbols: list[str]) -> Expr:
    built: list[Expr] = []
    for code in reversed(flat):
        if code == APP or code == PI:
            f, x = built.pop(), built.pop()
            built.append(("a" if code == APP else "f", f, x))
        elif code == VAR_CODE:
            built.append(("v",))
        elif code < 0:
            built.append(("l", f"v{-code - 1}"))
        else:
            kind, _, text = symbols[code - FIRST_SYMBOL].partition(":")
            built.append((kind, text))
    return built[0]
