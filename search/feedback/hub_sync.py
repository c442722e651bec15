"""Votes kept in a Hugging Face dataset repository as well as in SQLite, so that they outlive a
Space whose disk is wiped at every restart (`FEEDBACK_REPO=hf://datasets/OWNER/NAME`).

Each committed vote is appended as one JSON line to `votes/<start time>-<random>.jsonl` in a
local folder beside the database (`<db>.hub/`), written and fsynced before the vote is
acknowledged; huggingface_hub's CommitScheduler (the Spaces convention for collected feedback)
pushes the files that changed every `every` minutes and once more at a clean exit. A file per
process start means two servers, or a server and its restart, never write the same file. So
a vote acknowledged more than one period (plus the push under way) before a crash is on the Hub.
At start, the votes on the Hub are put back into the database (`FeedbackStore.restore`, the
newest vote per session, query and result wins), so the ballot's caps and a session's thumbs
carry over and `python -m search feedback export` sees every vote.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import time
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from search.feedback.store import FeedbackStore, Vote
from search.hub.address import HubAddressError, parse_hub_address

if TYPE_CHECKING:
    from huggingface_hub import CommitScheduler, HfApi

log = logging.getLogger(__name__)

#: The folder of the vote files in the dataset repository.
VOTES_DIR = "votes"


class FeedbackSyncError(Exception):
    """The vote repository cannot be used (bad address, Hub unreachable, no write access)."""


class HubVoteSync:
    """The local JSON-lines file of this process's votes and the scheduler that pushes it."""

    def __init__(self, scheduler: "CommitScheduler", file: Path) -> None:
        self.scheduler = scheduler
        self.file = file

    @classmethod
    def start(cls, spec: str, database: Path, every_minutes: float,
              api: "HfApi | None" = None) -> "HubVoteSync":
        """Create the repository if absent (private: votes hold queries) and start pushing."""
        from huggingface_hub import CommitScheduler
        from huggingface_hub.errors import HfHubHTTPError

        try:
            address = parse_hub_address(spec)
        except HubAddressError as error:
            raise FeedbackSyncError(f"FEEDBACK_REPO: {error}") from error
        if address.repo_type != "dataset" or address.revision:
            raise FeedbackSyncError(f"FEEDBACK_REPO={spec}: votes go to a dataset repository, hf://datasets/OWNER/NAME")
        folder = database.with_name(database.name + ".hub")
        (folder / VOTES_DIR).mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        file = folder / VOTES_DIR / f"{stamp}-{secrets.token_hex(4)}.jsonl"
        try:
            scheduler = CommitScheduler(
                repo_id=address.repo_id, repo_type="dataset", folder_path=folder, every=every_minutes,
                private=True, allow_patterns=f"{VOTES_DIR}/*.jsonl", hf_api=api,
            )
        except (HfHubHTTPError, OSError, ValueError) as error:
            raise FeedbackSyncError(f"FEEDBACK_REPO={spec}: the Hub refused the vote repository ({error})") from error
        log.info("votes also go to %s every %g min (%s)", spec, every_minutes, file)
        return cls(scheduler, file)

    def append(self, vote: Vote) -> None:
        """Write the vote to the file the scheduler pushes, on disk before this returns (under
        the scheduler's lock, so that a push never reads half a line)."""
        line = json.dumps(asdict(vote), ensure_ascii=False, sort_keys=True) + "\n"
        with self.scheduler.lock, self.file.open("a", encoding="utf-8") as handle:
            handle.write(line)
            handle.flush()
            os.fsync(handle.fileno())

    def hub_votes(self) -> list[Vote]:
        """Every vote in the repository's vote files (its default branch, now)."""
        from huggingface_hub import hf_hub_download

        api = self.scheduler.api
        names = [n for n in api.list_repo_files(self.scheduler.repo_id, repo_type="dataset")
                 if n.startswith(f"{VOTES_DIR}/") and n.endswith(".jsonl")]
        votes = []
        for name in names:
            path = hf_hub_download(self.scheduler.repo_id, name, repo_type="dataset", endpoint=api.endpoint,
                                   token=api.token)
            votes += read_votes(Path(path))
        return votes

    def restore_into(self, store: FeedbackStore) -> int:
        """Put the Hub's votes back into `store`; how many rows that changed."""
        from huggingface_hub.errors import HfHubHTTPError

        try:
            votes = self.hub_votes()
        except (HfHubHTTPError, OSError) as error:
            raise FeedbackSyncError(f"the votes on {self.scheduler.repo_id} could not be read ({error})") from error
        return store.restore(votes)

    def push(self) -> None:
        """Push now and wait (tests; a clean exit pushes by itself)."""
        self.scheduler.trigger().result()

    def stop(self) -> None:
        self.scheduler.stop()


def read_votes(path: Path) -> list[Vote]:
    """The votes of a JSON-lines file; a torn last line (a crash while writing) is skipped."""
    votes = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            votes.append(Vote(**json.loads(line)))
        except (json.JSONDecodeError, TypeError) as error:
            log.warning("%s:%d: not a vote, skipped (%s)", path, number, error)
    return votes

