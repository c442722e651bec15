"""`bussproofs` proof trees (`\\AxiomC`, `\\UnaryInfC`, ...) as nested fractions."""

from __future__ import annotations

import re

from search.ui.katex.groups import next_argument

_PROOF_COMMAND = re.compile(
    r"\\(AxiomC|Axiom|UnaryInfC|UnaryInf|BinaryInfC|BinaryInf|TrinaryInfC|TrinaryInf|"
    r"QuaternaryInfC|QuinaryInfC|DeduceC|Deduce|RightLabel|LeftLabel|DisplayProof|fCenter|"
    r"insertBetweenHyps|LeftSubproofLabel|RightSubproofLabel|doubleLine|singleLine|noLine|dottedLine)(?![A-Za-z])"
)
_PREMISES = {"Axiom": 0, "Unary": 1, "Binary": 2, "Trinary": 3, "Quaternary": 4, "Quinary": 5, "Deduce": 1}


def proof_tree(text: str) -> str:
    """`bussproofs` proof trees as nested fractions: each inference rule a fraction over its
    premises, `\\RightLabel`/`\\LeftLabel` beside its line; text outside the trees is kept
    (text without one is returned as it is)."""
    out, stack, at = [], [], 0
    labels = {"RightLabel": "", "LeftLabel": ""}
    for match in _PROOF_COMMAND.finditer(text):
        if match.start() < at:
            continue
        if not stack:
            out.append(text[at:match.start()])
        command = match.group(1)
        at = match.end()
        if command in ("DisplayProof",):
            out.append(r" \quad ".join(stack))
            stack = []
            continue
        if command in ("fCenter", "doubleLine", "singleLine", "noLine", "dottedLine"):
            continue
        if command.endswith("C") or command in ("RightLabel", "LeftLabel", "insertBetweenHyps",
                                                "LeftSubproofLabel", "RightSubproofLabel"):
            argument, at = next_argument(text, at)
        else:  # \Axiom$...$, \UnaryInf$...$: the argument is delimited by dollars
            start = text.find("$", at)
            end = text.find("$", start + 1) if start >= 0 else -1
            argument, at = (text[start + 1:end], end + 1) if end >= 0 else ("", at)
        argument = re.sub(r"(?<!\\)\$", " ", argument.replace(r"\fCenter", " ")).strip()
        if command in labels:
            labels[command] = r"{\scriptstyle " + argument + "}" if argument else ""
            continue
        if command in ("insertBetweenHyps", "LeftSubproofLabel", "RightSubproofLabel"):
            continue
        kind = next((k for k in _PREMISES if command.startswith(k)), "Axiom")
        count = _PREMISES[kind]
        premises = stack[len(stack) - count:] if count else []
        del stack[len(stack) - len(premises):]
        if kind == "Axiom":
            stack.append(argument)
        elif kind == "Deduce":
            stack.append(r"\begin{matrix}" + " ".join(premises) + r" \\ \vdots \\ " + argument + r"\end{matrix}")
        else:
            line = r"\dfrac{" + r" \quad ".join(premises) + "}{" + argument + "}"
            stack.append(labels["LeftLabel"] + r"\," + line + r"\," + labels["RightLabel"])
        labels = {"RightLabel": "", "LeftLabel": ""}
    out.append(r" \quad ".join(stack) + text[at:])
    return "".join(out)
