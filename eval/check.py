"""`python -m eval check`: every figure the documentation reports, rerun from its command and compared.

`eval/conditions.yaml` lists each reported condition: the command that measures it, the JSON
file the command writes, where each value sits in that file, the value expected and the
tolerance. `check` runs the commands (all, or `--only NAME`), reads the values, prints OK
(equal at the precision shown), `within tolerance` or FAIL for each, and rewrites the table of
each condition between its markers, `<!-- check:NAME -->` and `<!-- /check:NAME -->`, with the
values measured, in whichever page holds them: `README.md` or a page of the documentation site
(`docs/**/*.md`; each condition's markers are in exactly one page). `--accept` stores them as the new expected values; `--dry-run` lists
the conditions and their commands without running anything.

A value's place in a JSON file is a path of dot-separated keys; `key[field=value,...]` picks
the element of a list whose fields have those values, `key[3]` an element by position:
`summary[variant=default,key=all,value=all].metrics.nDCG@10`. A value that is an object with a
`mean` (a metric with its bootstrap interval) is compared by its mean and shown as
`mean [low, high]`.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

import yaml

from eval.steps import OTHER_INDEXES
from search import config

CONDITIONS = config.REPO_DIR / "eval" / "conditions.yaml"
#: A condition's `output` when its command prints its JSON instead of writing a file.
STDOUT = "stdout"
#: Placeholders a command may hold besides {out}, {index} and {shared}: each is given by the
#: `check` option of its name, as (metavar, what it stands for and which page says how to make
#: one); a condition whose placeholder is not given reports that it needs it.
PLACEHOLDERS = {
    "postgres": ("DSN", "a PostgreSQL server holding the index (docs/postgres.md)"),
    **{name: ("INDEX", built) for name, built in OTHER_INDEXES.items()},
}


# --- Reading values out of a command's JSON ------------------------------------------------------

_SEGMENT = re.compile(r"([^.\[\]]+)((?:\[[^\]]*\])*)")


def lookup(data: Any, path: str) -> Any:
    """The value at `path` in decoded JSON (module docstring); KeyError naming the missing step."""
    for match in _SEGMENT.finditer(path):
        key, selectors = match.group(1), match.group(2)
        if not isinstance(data, Mapping) or key not in data:
            raise KeyError(f"{path}: no {key!r}")
        data = data[key]
        for selector in re.findall(r"\[([^\]]*)\]", selectors):
            data = _select(data, selector, path)
    return data


_SELECTOR_PARTS = re.compile(r",(?=[^,=]+=)")


def _select(items: Any, selector: str, path: str) -> Any:
    if not isinstance(items, list):
        raise KeyError(f"{path}: [{selector}] applies to a list")
    if selector.isdigit():
        if int(selector) >= len(items):
            raise KeyError(f"{path}: no element {selector}")
        return items[int(selector)]
    # A comma starts the next `key=value` only where one follows, so a value may hold commas.
    wanted = dict(part.split("=", 1) for part in _SELECTOR_PARTS.split(selector))
    for item in items:
        if isinstance(item, Mapping) and all(str(item.get(k)) == v for k, v in wanted.items()):
            return item
    raise KeyError(f"{path}: no element with {selector}")


def _number(value: Any) -> float:
    """The number a value is compared by: itself, or the mean of a metric with its interval."""
    if isinstance(value, Mapping) and "mean" in value:
        value = value["mean"]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"not a number: {value!r}")
    return float(value)


# --- How a value is shown -------------------------------------------------------------------------


def _duration(value: Any) -> str:
    """Seconds as a build time is read: `33.5 s`, `20 min 8 s`."""
    seconds = _number(value)
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s"


def _interval(value: Any) -> str:
    if isinstance(value, Mapping) and "low" in value:
        return f"{value['mean']:.3f} [{value['low']:.3f}, {value['high']:.3f}]"
    return f"{_number(value):.3f}"


#: Format name -> how a value is written in a documentation table.
FORMATS: dict[str, Callable[[Any], str]] = {
    "metric": _interval,
    "number": lambda v: f"{_number(v):.3f}",
    "count": lambda v: f"{round(_number(v)):,}",
    "ms": lambda v: f"{_number(v):.1f}",
    "seconds": lambda v: f"{_number(v):.1f}",
    "duration": _duration,
    "gb": lambda v: f"{_number(v):.2f}",
    "per_second": lambda v: f"{_number(v):.1f}",
    "percent": lambda v: f"{100 * _number(v):.1f}%",
    # Values that are text, compared as shown: plain text, Lean code (a `|` escaped for the table) and the
    # first three of a list of names.
    "text": lambda v: str(v).replace("|", "\\|"),
    "code": lambda v: "`" + str(v).replace("|", "\\|") + "`",
    "names": lambda v: ", ".join(f"`{name}`" for name in v[:3]),
}


#: Formats of text, left-aligned in a table (numbers are right-aligned).
TEXT_FORMATS = ("text", "code", "names")


def _stored(value: Any) -> str:
    """A measured value as `--accept` writes it into the conditions file (YAML)."""
    try:
        return f"{_number(value):.6g}"
    except TypeError:
        return json.dumps(value, ensure_ascii=False)


# --- Conditions ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    title: str
    path: str
    format: str = "metric"
    #: This column's own tolerance, when it differs from the condition's (timings, say).
    tolerance: float | None = None
    relative: bool | None = None
    #: The value of a cell whose path the output lacks (a count of no records is 0); without
    #: one, a missing value is an error.
    missing: float | None = None
    #: A cell whose path the output lacks is left empty (`–`) rather than an error (the first
    #: row of a table of differences against the row before).
    optional: bool = False


@dataclass(frozen=True)
class Row:
    key: str
    label: str
    #: What `{args}` stands for in the command when this row is measured (a `--set`, say).
    args: str = ""


@dataclass(frozen=True)
class Condition:
    """One reported table: how to measure it and what it should show.

    The command runs once for the whole table, or once per row when it holds `{args}`."""

    name: str
    reports: str
    command: str
    output: str
    rows: list[Row]
    columns: list[Column]
    expected: dict[str, Any] = field(default_factory=dict)
    #: Largest allowed difference: absolute, or relative when `relative`.
    tolerance: float = 0.0
    relative: bool = False
    #: The first column's title (the rows' header).
    header: str = ""

    def cells(self) -> Iterable[tuple[str, Row, Column, str]]:
        """(key, row, column, path) of every cell, row by row."""
        for row in self.rows:
            for column in self.columns:
                yield f"{row.key}.{column.title}", row, column, column.path.format(row=row.key)

    def command_line(self, row: Row, out: Path, index: Path, given: Mapping[str, str] | None = None) -> list[str]:
        """The row's command; a placeholder of `PLACEHOLDERS` takes its value from `given`
        and is left as it is when not given."""
        fields = {"out": str(out), "index": str(index), "shared": str(config.SHARED_DIR),
                  **{name: (given or {}).get(name) or "{" + name + "}" for name in PLACEHOLDERS}}
        parts = shlex.split(self.command.replace("{args}", row.args))
        return [part.format(**fields) for part in parts]

    def needs(self) -> list[str]:
        """The placeholders of `PLACEHOLDERS` its command holds."""
        return [name for name in PLACEHOLDERS if "{" + name + "}" in self.command]

    def shown_command(self) -> str:
        return self.command.replace(" {args}", " ...") if "{args}" in self.command else self.command


def _rows(spec: Any) -> list[Row]:
    """Rows from a list of keys, or a mapping of key -> label or {label, args}."""
    if isinstance(spec, list):
        return [Row(str(key), f"`{key}`") for key in spec]
    return [Row(str(key), value, "") if isinstance(value, str) else Row(str(key), **value) for key, value in spec.items()]


def load_conditions(path: Path = CONDITIONS) -> list[Condition]:
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    conditions = []
    for entry in data:
        columns = [Column(title, **spec) for title, spec in entry.pop("columns").items()]
        # A condition not yet measured has an empty `expected:` (`--accept` fills it).
        entry["expected"] = entry.get("expected") or {}
        conditions.append(Condition(columns=columns, rows=_rows(entry.pop("rows")), **entry))
    names = [c.name for c in conditions]
    if len(set(names)) != len(names):
        raise ValueError(f"{path}: a condition name is used twice")
    return conditions


@dataclass
class Outcome:
    """What a run of one condition measured, cell by cell, and what went wrong."""

    condition: Condition
    values: dict[str, Any]
    seconds: float
    errors: list[str] = field(default_factory=list)


def verdict(condition: Condition, key: str, value: Any, column: Column) -> str:
    """OK (the same at the precision shown), `within tolerance`, FAIL, or NEW (nothing is
    expected yet) for one measured cell."""
    if key not in condition.expected:
        return "NEW"
    shown = FORMATS[column.format]
    try:
        measured, expected = _number(value), _number(condition.expected[key])
    except TypeError:  # text: the same as shown, or not
        return "OK" if shown(value) == shown(condition.expected[key]) else "FAIL"
    if shown(measured) == shown(expected):
        return "OK"
    tolerance = condition.tolerance if column.tolerance is None else column.tolerance
    relative = condition.relative if column.relative is None else column.relative
    allowed = tolerance * (abs(expected) if relative else 1.0)
    return "within tolerance" if abs(measured - expected) <= allowed * (1 + 1e-9) else "FAIL"


@dataclass
class Runner:
    """Runs commands, each distinct command line once per check (conditions that report two
    tables of one run share it), into directories under `out`."""

    out: Path
    index: Path
    given: dict[str, str] = field(default_factory=dict)
    done: dict[tuple[str, ...], tuple[Any, float, str]] = field(default_factory=dict)

    def data(self, condition: Condition, row: Row) -> tuple[Any, float, str]:
        """(decoded output, seconds, error) of the row's command line."""
        folder = self.out / condition.name / (row.key if "{args}" in condition.command else "")
        command = condition.command_line(row, folder, self.index, self.given)
        key = tuple(condition.command_line(row, Path("{out}"), self.index, self.given)) + (condition.output,)
        missing = [name for name in condition.needs() if not self.given.get(name)]
        if missing:
            return None, 0.0, "; ".join(f"needs --{name} {': '.join(PLACEHOLDERS[name])}" for name in missing)
        if key not in self.done:
            folder.mkdir(parents=True, exist_ok=True)
            print(f"  $ {shlex.join(command)}", flush=True)
            start = time.perf_counter()
            done = subprocess.run(command, cwd=config.REPO_DIR, capture_output=True, text=True)
            seconds = time.perf_counter() - start
            if done.returncode != 0:
                self.done[key] = (None, seconds, f"{shlex.join(command)} exited with {done.returncode}: "
                                                 f"{done.stderr.strip()[-2000:]}")
            else:
                text = done.stdout if condition.output == STDOUT else (folder / condition.output).read_text(encoding="utf-8")
                self.done[key] = (json.loads(text), seconds, "")
        return self.done[key]

    def run(self, condition: Condition) -> Outcome:
        outcome = Outcome(condition, {}, 0.0)
        for key, row, column, path in condition.cells():
            data, seconds, error = self.data(condition, row)
            outcome.seconds = max(outcome.seconds, seconds)
            if error:
                if error not in outcome.errors:
                    outcome.errors.append(error)
                continue
            try:
                outcome.values[key] = lookup(data, path)
            except KeyError as missing:
                if column.optional:
                    continue
                if column.missing is None:
                    outcome.errors.append(str(missing))
                else:
                    outcome.values[key] = column.missing
        return outcome


def table(condition: Condition, values: Mapping[str, Any]) -> str:
    """The condition's Markdown table (values missing are shown as `–`), and its command."""
    header = [condition.header or "", *(c.title for c in condition.columns)]
    align = "".join(" --- |" if c.format in TEXT_FORMATS else " ---: |" for c in condition.columns)
    lines = ["| " + " | ".join(header) + " |", "| --- |" + align]
    for row in condition.rows:
        cells = [row.label]
        for column in condition.columns:
            key = f"{row.key}.{column.title}"
            cells.append(FORMATS[column.format](values[key]) if key in values else "–")
        lines.append("| " + " | ".join(cells) + " |")
    per_row = " (each row with its own arguments, listed by `python -m eval check --dry-run`)" if "{args}" in condition.command else ""
    options = "".join(f" --{name} {PLACEHOLDERS[name][0]}" for name in condition.needs())
    return "\n".join(lines) + (f"\n\nMeasured by `{condition.shown_command()}`{per_row}; "
                               f"rerun and compared by `python -m eval check --only {condition.name}"
                               f"{options}`.")


def _marker(name: str) -> tuple[str, str]:
    return f"<!-- check:{name} -->", f"<!-- /check:{name} -->"


def pages(root: Path = config.REPO_DIR) -> list[Path]:
    """The pages that may hold a condition's table: the README and the documentation site's."""
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def marked_conditions(text: str) -> list[str]:
    """The condition names a page has markers for, in order."""
    return re.findall(r"<!-- check:([a-z0-9][a-z0-9.-]*) -->", text)


def pages_by_condition(root: Path = config.REPO_DIR) -> dict[str, Path]:
    """Condition name -> the page holding its markers; ValueError when two pages hold the same."""
    found: dict[str, Path] = {}
    for page in pages(root):
        for name in marked_conditions(page.read_text(encoding="utf-8")):
            if name in found:
                raise ValueError(f"condition {name} has markers in {found[name]} and in {page}")
            found[name] = page
    return found


def rewrite(text: str, condition: Condition, values: Mapping[str, Any]) -> str:
    """`text` with the table between the condition's markers replaced."""
    start, end = _marker(condition.name)
    if start not in text or end not in text:
        raise ValueError(f"no markers {start} ... {end}")
    before, rest = text.split(start, 1)
    _, after = rest.split(end, 1)
    return f"{before}{start}\n{table(condition, values)}\n{end}{after}"


def _accept(path: Path, outcomes: list[Outcome]) -> None:
    """Store measured values as the expected ones in the conditions file, comments kept: a
    condition's `expected:` mapping is its last key, so it is replaced up to the next `- name:`."""
    text = path.read_text(encoding="utf-8")
    for outcome in outcomes:
        lines = "".join(f"    {key}: {_stored(value)}\n" for key, value in outcome.values.items())
        block = re.compile(rf"^- name: {re.escape(outcome.condition.name)}\n.*?(?=^- name: |\Z)", re.M | re.S)
        match = block.search(text)
        if match is None:
            raise ValueError(f"{path}: no condition {outcome.condition.name}")
        head = match.group().split("  expected:\n")[0].rstrip("\n") + "\n"
        text = text[: match.start()] + head + "  expected:\n" + lines + "\n" + text[match.end():].lstrip("\n")
    path.write_text(text.rstrip("\n") + "\n", encoding="utf-8")


def _check(args: argparse.Namespace) -> int:
    conditions = load_conditions(Path(args.conditions))
    if args.only:
        unknown = sorted(set(args.only) - {c.name for c in conditions})
        if unknown:
            print(f"python -m eval check: no condition {', '.join(unknown)}; "
                  f"conditions: {', '.join(c.name for c in conditions)}", file=sys.stderr)
            return 2
        conditions = [c for c in conditions if c.name in args.only]
    root = Path(args.root)
    if args.dry_run:
        for c in conditions:
            tolerance = f"{c.tolerance:g}{' relative' if c.relative else ''}"
            print(f"{c.name}: {c.reports} ({len(list(c.cells()))} values, {len(c.expected)} expected, "
                  f"tolerance {tolerance})")
            commands = {" ".join(c.command_line(row, Path("{out}"), Path(args.index))) for row in c.rows}
            for command in sorted(commands):
                print(f"  {command}")
        return 0
    failed = False
    where = pages_by_condition(root)
    given = {name: getattr(args, name) for name in PLACEHOLDERS}
    runner = Runner(Path(args.out or tempfile.mkdtemp(prefix="check-")), Path(args.index), given)
    for condition in conditions:
        print(f"{condition.name}: {condition.reports}", flush=True)
        outcome = runner.run(condition)
        for error in outcome.errors:
            print(f"  FAIL {error}")
            failed = True
        for key, _, column, _ in condition.cells():
            if key in outcome.values:
                said = verdict(condition, key, outcome.values[key], column)
                failed |= said == "FAIL"
                expected = condition.expected.get(key)
                shown = FORMATS[column.format](outcome.values[key])
                print(f"  {said:<16} {key}: {shown}" + (f" (expected {_stored(expected)})" if expected is not None else ""))
        print(f"  ({outcome.seconds:.1f} s)")
        if outcome.errors:
            continue
        # Each page and the conditions file are read when a condition ends, not when the run
        # starts: a check runs for hours, and edits made meanwhile must survive it.
        if condition.name in where:
            page = where[condition.name]
            text = page.read_text(encoding="utf-8")
            rewritten = rewrite(text, condition, outcome.values)
            if rewritten != text:
                page.write_text(rewritten, encoding="utf-8")
        if args.accept:
            _accept(Path(args.conditions), [outcome])
    return 1 if failed else 0


def add_parser(commands: argparse._SubParsersAction) -> None:
    check = commands.add_parser(
        "check", help="rerun every figure the documentation reports and compare it with what is expected",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    check.add_argument("--only", action="append", metavar="NAME", help="this condition only (repeatable)")
    check.add_argument("--dry-run", action="store_true", help="list the conditions and their commands; run nothing")
    check.add_argument("--accept", action="store_true", help="store the values measured as the expected ones")
    check.add_argument("--index", default=str(config.DEFAULT_INDEX_DIR), help="the index {index} stands for")
    for name, (metavar, meaning) in PLACEHOLDERS.items():
        check.add_argument(f"--{name}", default="", metavar=metavar, help=f"{{{name}}} in a command: {meaning}")
    check.add_argument("--out", help="keep each command's output under OUT/NAME (default: a temporary directory)")
    check.add_argument("--conditions", default=str(CONDITIONS), help="the conditions file")
    check.add_argument("--root", default=str(config.REPO_DIR),
                       help="the folder whose README.md and docs/**/*.md have their marked tables rewritten")
    check.set_defaults(run=_check)
