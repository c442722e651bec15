"""`python -m search publish DIR hf://datasets/OWNER/NAME`: an index directory to a Hub dataset
repository, so that a Space (or anyone) serves it with `--index hf://datasets/OWNER/NAME`.

The index is checked against its manifest first (every file's size and SHA-256), so a damaged
or half-built index is never published. Then, in one commit: the manifest, every file it lists,
and a dataset card written from it (search/hub/card.py); files of an earlier index that this
one has not are deleted in the same commit, because the app refuses an index directory holding
index files its manifest does not list. Only the files the manifest lists are sent, so other
files lying in the directory stay local.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from search.hub.address import HubAddressError, parse_hub_address
from search.hub.card import dataset_card
from search.index.manifest import MANIFEST, read_manifest

if TYPE_CHECKING:
    from huggingface_hub import HfApi

CARD = "README.md"
#: Files of the repository a publish leaves alone (the Hub writes `.gitattributes` itself).
KEPT = frozenset({".gitattributes"})


@dataclass(frozen=True)
class Published:
    """What a publish did: where, at which commit, how many files sent and deleted."""

    address: str
    commit: str
    url: str
    files: int
    deleted: int
    tag: str | None = None


def publish(directory: Path, spec: str, api: "HfApi | None" = None, private: bool = False,
            tag: str | None = None, message: str | None = None) -> Published:
    """Upload the index at `directory` to the dataset repository `spec` (created if absent) as
    one commit, with its dataset card; with `tag`, tag that commit (e.g. the Mathlib version)."""
    from huggingface_hub import CommitOperationAdd, CommitOperationDelete, HfApi

    address = parse_hub_address(spec)
    if address.repo_type != "dataset":
        raise HubAddressError(f"{spec}: an index is published to a dataset repository (hf://datasets/OWNER/NAME)")
    if address.revision:
        raise HubAddressError(f"{spec}: publish writes the default branch; name a version with --tag, not @")
    manifest = read_manifest(directory, verify=True)
    api = api or HfApi()
    api.create_repo(address.repo_id, repo_type="dataset", private=private, exist_ok=True)
    names = [MANIFEST, *manifest["files"]]
    operations: list[CommitOperationAdd | CommitOperationDelete] = [
        CommitOperationAdd(path_in_repo=name, path_or_fileobj=str(directory / name)) for name in names
    ]
    card = dataset_card(manifest, f"hf://datasets/{address.repo_id}")
    operations.append(CommitOperationAdd(path_in_repo=CARD, path_or_fileobj=card.encode("utf-8")))
    sent = {*names, CARD}
    stale = [name for name in api.list_repo_files(address.repo_id, repo_type="dataset")
             if name not in sent and name not in KEPT]
    operations += [CommitOperationDelete(path_in_repo=name) for name in stale]
    info = api.create_commit(
        address.repo_id, operations, repo_type="dataset",
        commit_message=message or f"Index of {manifest.get('total', 0)} records built {manifest.get('build_date', '')}",
    )
    if tag:
        api.create_tag(address.repo_id, tag=tag, revision=info.oid, repo_type="dataset")
    return Published(str(address), info.oid, info.commit_url, len(sent), len(stale), tag)
