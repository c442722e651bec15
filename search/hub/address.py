"""`hf://[TYPE/]OWNER/NAME[@REVISION]` addresses, the form `hf://` paths take in
huggingface_hub (TYPE is datasets, models or spaces; a model repository when left out)."""

from __future__ import annotations

from dataclasses import dataclass

HF_PREFIX = "hf://"
_REPO_TYPES = {"datasets": "dataset", "models": "model", "spaces": "space"}


class HubAddressError(ValueError):
    """An `hf://` address that does not name one repository."""


@dataclass(frozen=True)
class HubAddress:
    """A repository on the Hub, and a revision of it (None: the default branch)."""

    repo_type: str
    repo_id: str
    revision: str | None = None

    def __str__(self) -> str:
        kind = "" if self.repo_type == "model" else f"{self.repo_type}s/"
        return f"{HF_PREFIX}{kind}{self.repo_id}" + (f"@{self.revision}" if self.revision else "")


def is_hub_address(spec: str) -> bool:
    return spec.startswith(HF_PREFIX)


def parse_hub_address(spec: str) -> HubAddress:
    """`hf://datasets/owner/name@v1` -> HubAddress("dataset", "owner/name", "v1")."""
    if not is_hub_address(spec):
        raise HubAddressError(f"{spec}: not an hf:// address")
    address, _, revision = spec[len(HF_PREFIX):].partition("@")
    parts = address.strip("/").split("/")
    repo_type = "model"
    if len(parts) == 3 and parts[0] in _REPO_TYPES:
        repo_type = _REPO_TYPES[parts.pop(0)]
    if len(parts) != 2 or not all(parts):
        raise HubAddressError(f"{spec}: expected hf://[datasets/|models/|spaces/]OWNER/NAME[@REVISION]")
    return HubAddress(repo_type, "/".join(parts), revision or None)
