"""The judge's final ranking line, read strictly: a verdict we cannot read is never guessed.

Grammar of the last non-empty line of a verdict: labels `Engine X` (X one of the letters shown),
`,` between ranks and `=` between tied labels, spaces around them optional; every letter exactly
once and nothing else on the line (no bold, no full stop, no "Ranking:"). Places follow
standard competition ranking, as in the LeanExplore paper's analysis: after `A = B, C` both A
and B are 1st and C is 3rd, so every engine's place rates add up to 100%.

A verdict file holds one `{"id": trial id, "response": the judge's full text}` a line, from
`judge run` or from any other means of judging (`judge import`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Collection, Iterable, Sequence

from eval.jsonlines import json_objects
from eval.judge.prompt import LETTERS

_LABEL = re.compile(r"Engine ([A-Z])")


class VerdictError(ValueError):
    """A verdict without a readable ranking line; the message says what is wrong."""


def final_line(response: str) -> str:
    lines = [line.strip() for line in response.splitlines() if line.strip()]
    if not lines:
        raise VerdictError("the verdict is empty")
    return lines[-1]


def parse_ranking(line: str, letters: Sequence[str] = LETTERS) -> list[list[str]]:
    """`"Engine B, Engine A = Engine C"` -> `[["B"], ["A", "C"]]`."""
    ranking: list[list[str]] = []
    seen: list[str] = []
    for group in line.split(","):
        tied = []
        for label in group.split("="):
            match = _LABEL.fullmatch(label.strip())
            if not match:
                shown = label.strip()
                raise VerdictError(f"{shown!r} is not an engine label" if shown else
                                   f"empty place in the ranking line {line!r}")
            letter = match.group(1)
            if letter not in letters:
                raise VerdictError(f"Engine {letter} was not among the engines shown")
            if letter in seen:
                raise VerdictError(f"Engine {letter} is ranked twice in {line!r}")
            seen.append(letter)
            tied.append(letter)
        ranking.append(tied)
    missing = [letter for letter in letters if letter not in seen]
    if missing:
        raise VerdictError(f"the ranking line {line!r} leaves out " + ", ".join(f"Engine {m}" for m in missing))
    return ranking


def parse_verdict(response: str, letters: Sequence[str] = LETTERS) -> list[list[str]]:
    """The ranking on the last non-empty line of a judge's answer."""
    return parse_ranking(final_line(response), letters)


def places(ranking: Sequence[Sequence[str]]) -> dict[str, int]:
    """Place of each label (1 = best); tied labels share the best place of their group."""
    out: dict[str, int] = {}
    place = 1
    for group in ranking:
        for label in group:
            out[label] = place
        place += len(group)
    return out


@dataclass
class Verdict:
    """A judge's answer to one trial: its full text, or why there is none (`error`)."""

    id: str
    response: str = ""
    error: str = ""
    judge: str = ""  # model or person, as the verdict file says
    attempts: int = 1

    def ranking(self, letters: Sequence[str] = LETTERS) -> list[list[str]]:
        """The parsed ranking; `VerdictError` when there is no readable one."""
        if not self.response:
            raise VerdictError(self.error or "no response")
        return parse_verdict(self.response, letters)

    @property
    def readable(self) -> bool:
        try:
            self.ranking()
        except VerdictError:
            return False
        return True

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "response": self.response}
        out.update({k: v for k, v in (("error", self.error), ("judge", self.judge)) if v})
        if self.attempts != 1:
            out["attempts"] = self.attempts
        return out


class VerdictFileError(ValueError):
    """A verdict file that cannot be read or does not fit the export; names the file and line."""


def read_verdicts(path: Path, trial_ids: Collection[str], repeats: bool = False) -> dict[str, Verdict]:
    """Verdicts by trial id: JSON lines `{"id", "response"}` (optional `judge`, `error`,
    `attempts`). Unknown ids are refused; a repeated id is refused unless `repeats` (a resumed
    run appends), in which case the last line wins."""
    verdicts: dict[str, Verdict] = {}
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise VerdictFileError(f"{path}: cannot be read ({error})") from error
    for number, row in json_objects(text, path, VerdictFileError):
        where = f"{path}:{number}"
        if not isinstance(row.get("id"), str):
            raise VerdictFileError(f"{where}: expected an object with a string 'id'")
        if row["id"] not in trial_ids:
            raise VerdictFileError(f"{where}: {row['id']!r} is not a trial of this export")
        if row["id"] in verdicts and not repeats:
            raise VerdictFileError(f"{where}: a second verdict for {row['id']}")
        response = row.get("response")
        if response is not None and not isinstance(response, str):
            raise VerdictFileError(f"{where}: 'response' must be a string")
        verdicts[row["id"]] = Verdict(row["id"], response or "", str(row.get("error") or ""),
                                      str(row.get("judge") or ""), int(row.get("attempts") or 1))
    return verdicts


def write_verdicts(path: Path, verdicts: Iterable[Verdict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(v.to_dict(), ensure_ascii=False) + "\n" for v in verdicts),
                    encoding="utf-8")
