"""A brute-force matcher of Loogle patterns, one statement at a time, to check the fast one.

`search.engine.patterns.Matcher` matches a pattern against every candidate at once with numpy
over the flat arrays of the pattern index, after narrowing the candidates with postings. This
one rebuilds each statement as a nested tuple from its nodes alone (no `ends`, no postings, no
occurrences) and follows the rules of that module's docstring literally, recursively: a
pattern matches a statement when it matches some subterm of it (at the root only for `⊢`); a
pattern that is a function type, and every `⊢` pattern, matches up to hypotheses (the
conclusions, then each of the pattern's parameters with the first statement parameter not yet
taken that matches it); anything else node by node, `_` any term, `?a` the same term at each
occurrence. Slow, and only used by `eval/patterns.py` on a sample.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np

from search.corpus.lean.expr import Expr
from search.engine.patterns import Pattern
from search.index.patterns import APP, PI, PatternIndex, symbol_of

#: A statement as a tree: ("a" | "f", left, right) or ("leaf", node code).
Tree = tuple
Env = dict[str, Tree]
#: A pattern leaf that no statement holds.
_NOWHERE = ("leaf", None)


def tree_of(nodes: np.ndarray) -> Tree:
    """The nested form of one statement's flat prefix nodes."""
    codes = nodes.tolist()

    def read(at: int) -> tuple[Tree, int]:
        code = codes[at]
        if code in (APP, PI):
            left, after = read(at + 1)
            right, after = read(after)
            return ("a" if code == APP else "f", left, right), after
        return ("leaf", code), at + 1

    tree, end = read(0)
    assert end == len(codes), "a statement is one tree"
    return tree


def compile_pattern(term: Expr, index: PatternIndex) -> Tree:
    """The pattern with its leaves as node codes: ("any",), ("hole", name) or ("leaf", code)."""
    if term[0] in ("a", "f"):
        return (term[0], compile_pattern(term[1], index), compile_pattern(term[2], index))
    if term[0] == "?":
        return ("hole", term[1])
    symbol = symbol_of(term)
    if symbol is None:
        return ("any",)
    code = index.code.get(symbol)
    return _NOWHERE if code is None else ("leaf", code)


def matches(pattern: Pattern, statement: Tree, index: PatternIndex) -> bool:
    """Whether the pattern matches the statement (module docstring)."""
    compiled = compile_pattern(pattern.term, index)
    if pattern.conclusion:
        return _up_to_hypotheses(compiled, statement)
    if compiled[0] == "f":
        return any(_up_to_hypotheses(compiled, t) for t in _subterms(statement) if t[0] == "f")
    return any(_match(compiled, t, {}) is not None for t in _subterms(statement))


def _subterms(tree: Tree) -> Iterator[Tree]:
    stack = [tree]
    while stack:
        t = stack.pop()
        yield t
        if t[0] in ("a", "f"):
            stack.extend((t[2], t[1]))


def _match(pattern: Tree, tree: Tree, env: Env) -> Env | None:
    kind = pattern[0]
    if kind == "any":
        return env
    if kind == "hole":
        name = pattern[1]
        if name in env:
            return env if env[name] == tree else None
        return {**env, name: tree}
    if kind == "leaf":
        return env if tree == pattern else None
    if tree[0] != kind:
        return None
    inner = _match(pattern[1], tree[1], env)
    return None if inner is None else _match(pattern[2], tree[2], inner)


def _up_to_hypotheses(pattern: Tree, tree: Tree) -> bool:
    params: list[Tree] = []
    while pattern[0] == "f":
        params.append(pattern[1])
        pattern = pattern[2]
    hypotheses: list[Tree] = []
    while tree[0] == "f":
        hypotheses.append(tree[1])
        tree = tree[2]
    env = _match(pattern, tree, {})
    if env is None:
        return False
    used: set[int] = set()
    for param in params:
        for i, hypothesis in enumerate(hypotheses):
            if i not in used and (paired := _match(param, hypothesis, env)) is not None:
                used.add(i)
                env = paired
                break
        else:
            return False
    return True
