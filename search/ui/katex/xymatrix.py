"""xy-pic commutative diagrams (`\\xymatrix{...}`) as KaTeX arrays, which KaTeX can draw."""

from __future__ import annotations

import re

from search.ui.katex.groups import group_end, next_argument, split_top

#: The command, up to the brace of its body.
XYMATRIX = re.compile(r"\\xymatrix(?:@[^{]*)?\s*(?=\{)")
_ARROW = re.compile(r"\\ar(?![A-Za-z])")


def _arrow(text: str, at: int) -> tuple[dict[str, object], int]:
    """One `\\ar` of xy-pic from `at` (just after `\\ar`): its style, direction and labels."""
    style = ""
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if text.startswith("@", at):
            at += 1
            if at < len(text) and text[at] in "{<(/":
                closing = {"{": "}", "<": ">", "(": ")", "/": "/"}[text[at]]
                if text[at] == "{":
                    end = group_end(text, at) or len(text)
                    style += text[at + 1:end - 1]
                    at = end
                else:
                    end = text.find(closing, at + 1)
                    at = len(text) if end < 0 else end + 1
            elif at < len(text) and text[at] in "^_":
                _, at = next_argument(text, at + 1)
            else:
                at += 1
            continue
        break
    down = right = 0
    if text.startswith("[", at):
        end = text.find("]", at)
        end = len(text) if end < 0 else end
        letters = text[at + 1:end].split("|")[0]
        down = letters.count("d") - letters.count("u")
        right = letters.count("r") - letters.count("l")
        at = end + 1
    labels: dict[str, str] = {}
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at < len(text) and text[at] in "^_|":
            side = text[at]
            at += 1
            while at < len(text) and text[at] in "<>-(":
                at += 1
            label, at = next_argument(text, at)
            labels[side] = label
            continue
        break
    return {"style": style, "down": down, "right": right, "labels": labels}, at


def _symbol(arrow: dict[str, object]) -> str:
    """The KaTeX for one arrow, its labels beside it."""
    style = str(arrow["style"])
    labels: dict[str, str] = arrow["labels"]  # type: ignore[assignment]
    down, right = int(arrow["down"]), int(arrow["right"])  # type: ignore[call-overload]
    above, below = labels.get("^", ""), labels.get("_", "") or labels.get("|", "")
    if down == 0:
        side = "right" if right >= 0 else "left"
        if ".." in style or "--" in style:
            core = r"\dash" + side + "arrow"
            return rf"\overset{{{above}}}{{\underset{{{below}}}{{{core}}}}}" if above or below else core
        kind = {"^{(}": "hook", "(": "hook", ">>": "twohead", "=": "equal"}
        name = next((v for k, v in kind.items() if k in style), "")
        command = {"hook": rf"\xhook{side}arrow", "twohead": rf"\xtwohead{side}arrow",
                   "equal": r"\xlongequal"}.get(name, rf"\x{side}arrow")
        return rf"{command}[{below}]{{{above}}}"
    if right == 0:
        core = (r"\Big\Vert" if "=" in style else r"\Big\downarrow") if down > 0 else r"\Big\uparrow"
        left, right_label = (below, above) if down > 0 else (above, below)
        return rf"{{\scriptstyle {left}}}{core}{{\scriptstyle {right_label}}}"
    core = {(True, True): r"\searrow", (True, False): r"\swarrow", (False, True): r"\nearrow",
            (False, False): r"\nwarrow"}[(down > 0, right > 0)]
    return rf"{core}{{\scriptstyle {above or below}}}"


def xymatrix_array(body: str) -> str:
    """An xy-pic `\\xymatrix{...}` diagram as a KaTeX `array`: objects on the even rows and
    columns, each arrow in the cell between its source and the next object its way."""
    rows = [split_top(row, "&") for row in split_top(body, r"\\")]
    if rows and not "".join(rows[-1]).strip():
        rows.pop()
    height, width = max(len(rows), 1), max((len(r) for r in rows), default=1)
    grid = [["" for _ in range(2 * width - 1)] for _ in range(2 * height - 1)]
    for i, row in enumerate(rows):
        for j, cell in enumerate(row):
            objects, at = [], 0
            for match in _ARROW.finditer(cell):
                if match.start() < at:
                    continue
                objects.append(cell[at:match.start()])
                arrow, at = _arrow(cell, match.end())
                down, right = int(arrow["down"]), int(arrow["right"])  # type: ignore[call-overload]
                r = min(max(2 * i + (down > 0) - (down < 0), 0), len(grid) - 1)
                c = min(max(2 * j + (right > 0) - (right < 0), 0), len(grid[0]) - 1)
                grid[r][c] = (grid[r][c] + " " + _symbol(arrow)).strip()
            objects.append(cell[at:])
            grid[2 * i][2 * j] = " ".join(o.strip() for o in objects if o.strip())
    keep_rows = [r for r in range(len(grid)) if r % 2 == 0 or any(grid[r])]
    keep_cols = [c for c in range(len(grid[0])) if c % 2 == 0 or any(grid[r][c] for r in range(len(grid)))]
    lines = [" & ".join(grid[r][c] for c in keep_cols) for r in keep_rows]
    return r"\begin{array}{" + "c" * len(keep_cols) + "}" + r" \\ ".join(lines) + r"\end{array}"
