"""GitHub's source archives as a local HTTP server serves them, for the tests of
`python -m search corpora fetch`: `GET /OWNER/REPO/archive/COMMIT.tar.gz`, whole (200) or from a
byte on (`Range: bytes=N-`, 206 with `Content-Range`), with `Content-Length`; and two faults on
demand: a response cut after some bytes (the connection dropped mid-body) and other bytes served
than those first recorded (a corrupted download).

`github_archive` writes an archive in GitHub's layout (one top folder `REPO-COMMIT/`) from a
mapping of paths to contents, or from an archive of ../shared whose top folder it renames.
"""

from __future__ import annotations

import gzip
import io
import tarfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import AsyncIterator

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from search.corpus.upstreams import Upstream


def github_archive(entry: Upstream, files: dict[str, bytes]) -> bytes:
    """A .tar.gz of `files` (paths inside the repository) under `REPO-COMMIT/`, as GitHub makes it."""
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", compresslevel=1, mtime=0) as zipped:
        with tarfile.open(fileobj=zipped, mode="w", format=tarfile.PAX_FORMAT,
                          pax_headers={"comment": entry.commit}) as tar:
            for path, data in sorted(files.items()):
                info = tarfile.TarInfo(f"{entry.folder}/{path}")
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def files_of(archive: Path, drop_top: bool) -> dict[str, bytes]:
    """The files of a ../shared archive by path, its one top folder dropped when `drop_top`."""
    files = {}
    with tarfile.open(archive) as tar:
        for member in tar:
            if member.isfile():
                path = PurePosixPath(member.name)
                key = str(PurePosixPath(*path.parts[1:])) if drop_top else str(path)
                files[key] = tar.extractfile(member).read()  # type: ignore[union-attr]
    return files


@dataclass
class UpstreamServer:
    """Archives by URL path; `cut_after[path] = n` cuts the next response for `path` after n bytes
    of its body; `requests` records (path, Range header) of every request."""

    archives: dict[str, bytes] = field(default_factory=dict)
    cut_after: dict[str, int] = field(default_factory=dict)
    requests: list[tuple[str, str]] = field(default_factory=list)

    def serve(self, entry: Upstream, data: bytes) -> None:
        self.archives[f"/{entry.repository}/archive/{entry.commit}.tar.gz"] = data

    def app(self) -> Starlette:
        async def archive(request: Request) -> Response:
            path = request.url.path
            ranged = request.headers.get("range", "")
            self.requests.append((path, ranged))
            data = self.archives.get(path)
            if data is None:
                return Response("Not Found", status_code=404)
            start = int(ranged.removeprefix("bytes=").rstrip("-")) if ranged.startswith("bytes=") else 0
            if start >= len(data) and ranged:
                return Response(status_code=416, headers={"Content-Range": f"bytes */{len(data)}"})
            body = data[start:]
            headers = {"Content-Length": str(len(body)), "Content-Type": "application/x-gzip",
                       "Accept-Ranges": "bytes"}
            status = 200
            if ranged:
                status = 206
                headers["Content-Range"] = f"bytes {start}-{len(data) - 1}/{len(data)}"
            cut = self.cut_after.pop(path, None)

            async def chunks() -> AsyncIterator[bytes]:
                sent = 0
                for offset in range(0, len(body), 65536):
                    piece = body[offset: offset + 65536]
                    if cut is not None and sent + len(piece) > cut:
                        yield piece[: cut - sent]
                        raise ConnectionResetError("cut by the test")  # the server drops the connection
                    sent += len(piece)
                    yield piece

            return StreamingResponse(chunks(), status_code=status, headers=headers)

        return Starlette(routes=[Route("/{owner}/{repo}/archive/{name}", archive)])
