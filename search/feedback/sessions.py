"""Session ids that only this server can make: a random id and its HMAC-SHA256 under a secret.

A vote names a session; a session that anyone could invent would let one client pose as
many voters, or overwrite another's votes by naming its id. So the server issues each session
(the page on its first load, the native search API in its answer) and takes a vote only from a
session whose signature checks. The secret comes from `FEEDBACK_SECRET`, or is made once and
kept in a file beside the vote database (readable by its owner only), so that sessions outlive
restarts. The same secret keys the hash that stands for a client address in the vote store
(addresses are counted, never stored as they are).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import secrets
from pathlib import Path

#: What the APIs accept as a session id (anything else is a 422 before it is checked).
SESSION_PATTERN = r"^[A-Za-z0-9_.-]{1,128}$"
#: `<22 random base64url characters>.<22 characters of HMAC-SHA256>`: 45 characters, within
#: the 128 of `A-Za-z0-9_.-` that a session id may have.
_TOKEN = re.compile(r"^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{22})$")


class SessionSigner:
    """Issues session ids and tells its own from others."""

    def __init__(self, secret: bytes) -> None:
        if len(secret) < 16:
            raise ValueError("the session secret must have at least 16 bytes")
        self._secret = secret

    @classmethod
    def beside(cls, database: Path, secret: str | None = None) -> "SessionSigner":
        """The signer for a vote database: `secret` when given (FEEDBACK_SECRET), else the
        secret kept in `<database>.secret`, made on first use."""
        if secret:
            return cls(secret.encode("utf-8"))
        path = database.with_name(database.name + ".secret")
        try:
            return cls(path.read_bytes().strip())
        except FileNotFoundError:
            pass
        made = secrets.token_urlsafe(32).encode("ascii")
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process made it first: use theirs
            return cls(path.read_bytes().strip())
        with os.fdopen(descriptor, "wb") as file:
            file.write(made)
            file.flush()
            os.fsync(file.fileno())
        return cls(made)

    def _mac(self, text: str) -> str:
        digest = hmac.new(self._secret, text.encode("utf-8"), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode("ascii")[:22]

    def issue(self) -> str:
        """A new session id."""
        nonce = secrets.token_urlsafe(16)[:22]
        return f"{nonce}.{self._mac(nonce)}"

    def valid(self, token: object) -> bool:
        """Whether `token` is a session id this server (this secret) issued."""
        match = _TOKEN.match(token) if isinstance(token, str) else None
        return bool(match) and hmac.compare_digest(match.group(2), self._mac(match.group(1)))

    def address_key(self, address: str) -> str:
        """What the vote store keeps for a client address: a keyed hash, equal for equal
        addresses, that does not give the address back."""
        return self._mac("address:" + address)
