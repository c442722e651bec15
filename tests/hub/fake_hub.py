"""A Hugging Face Hub in memory, with only the endpoints `huggingface_hub` 2.4.0 calls to create
a repository, commit files, read a repository's tree and download a snapshot, so that
`publish`, `snapshot_download` (the app's `--index hf://...`) and `CommitScheduler` (the vote
sync) run unchanged against it (`HF_ENDPOINT` or `HfApi(endpoint=...)`).

What it does not do, and why that is enough here: it answers every file's upload mode as
"regular" (content inline in the commit, base64), so the client never takes the LFS or Xet
paths that the real Hub asks for large files; those are the client's own code, not ours. Write
endpoints require an `Authorization: Bearer` header, as the Hub does. Endpoints read from
huggingface_hub's source: `HfApi.create_repo` (POST /api/repos/create), `repo_info`
(GET /api/{type}s/{id}[/revision/{rev}]), `_validate_yaml` (POST /api/validate-yaml),
`_fetch_upload_modes` (POST .../preupload/{rev}), `_send_commit` (POST .../commit/{rev}), `create_tag` (POST .../tag/{rev}),
`list_repo_tree` (GET .../tree/{rev}[/{path}]) and `get_hf_file_metadata` / `hf_hub_download`
(HEAD and GET /{prefix}{id}/resolve/{rev}/{path}, headers X-Repo-Commit, ETag).
"""

from __future__ import annotations

import base64
import hashlib
import json
import threading
from dataclasses import dataclass, field
from urllib.parse import unquote

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

_PREFIX = {"datasets": "dataset", "models": "model", "spaces": "space"}


def git_blob_id(content: bytes) -> str:
    """Git's object id of a blob, which the client compares with a remote file's `oid`."""
    return hashlib.sha1(b"blob %d\0" % len(content) + content).hexdigest()


@dataclass
class Commit:
    sha: str
    message: str
    files: dict[str, bytes]


@dataclass
class Repo:
    repo_type: str
    repo_id: str
    commits: list[Commit] = field(default_factory=list)
    tags: dict[str, str] = field(default_factory=dict)

    @property
    def head(self) -> Commit:
        return self.commits[-1]

    def at(self, revision: str) -> Commit | None:
        if revision in ("main", ""):
            return self.head
        revision = self.tags.get(revision, revision)
        return next((c for c in self.commits if c.sha == revision), None)


class FakeHub:
    """The repositories (by `(type, id)`) and the Starlette app that serves them."""

    def __init__(self) -> None:
        self.repos: dict[tuple[str, str], Repo] = {}
        self.requests: list[str] = []  # "METHOD path", in order, for tests to read
        self._lock = threading.Lock()
        self.app = Starlette(routes=[
            Route("/api/repos/create", self._create, methods=["POST"]),
            Route("/api/validate-yaml", self._validate_yaml, methods=["POST"]),
            Route("/api/{kind}/{owner}/{name}/preupload/{revision}", self._preupload, methods=["POST"]),
            Route("/api/{kind}/{owner}/{name}/commit/{revision}", self._commit, methods=["POST"]),
            Route("/api/{kind}/{owner}/{name}/tag/{revision}", self._tag, methods=["POST"]),
            Route("/api/{kind}/{owner}/{name}/tree/{revision}", self._tree, methods=["GET"]),
            Route("/api/{kind}/{owner}/{name}/tree/{revision}/{path:path}", self._tree, methods=["GET"]),
            Route("/api/{kind}/{owner}/{name}/revision/{revision}", self._info, methods=["GET"]),
            Route("/api/{kind}/{owner}/{name}", self._info, methods=["GET"]),
            Route("/{kind}/{owner}/{name}/resolve/{revision}/{path:path}", self._resolve, methods=["GET", "HEAD"]),
        ])
        self.app.add_middleware(_Recorder, hub=self)

    def files(self, repo_type: str, repo_id: str) -> dict[str, bytes]:
        """The files of a repository's head commit."""
        return dict(self.repos[(repo_type, repo_id)].head.files)

    def _repo(self, request: Request) -> Repo | None:
        kind = _PREFIX.get(request.path_params["kind"])
        return self.repos.get((kind or "", f"{request.path_params['owner']}/{request.path_params['name']}"))

    def _writable(self, request: Request) -> Repo | Response:
        """The repository a write names, or the Hub's answer when the caller or the repository is wrong."""
        if not _authorised(request):
            return _error(401, "Invalid credentials")
        repo = self._repo(request)
        return _error(404, "Repository not found", "RepoNotFound") if repo is None else repo

    async def _create(self, request: Request) -> Response:
        if not _authorised(request):
            return _error(401, "Invalid credentials")
        body = await request.json()
        repo_id = f"{body['organization']}/{body['name']}" if body.get("organization") else body["name"]
        repo_type = body.get("type") or "model"
        key = (repo_type, repo_id)
        prefix = "" if repo_type == "model" else f"{repo_type}s/"
        url = f"{request.base_url}{prefix}{repo_id}"
        with self._lock:
            if key in self.repos:  # the Hub's answer carries the url too (create_repo reads it)
                return JSONResponse({"error": "You already created this repo", "url": url}, status_code=409,
                                    headers={"X-Error-Message": "You already created this repo"})
            repo = Repo(repo_type, repo_id)
            repo.commits.append(Commit(_sha(repo_id, 0), "initial commit", {".gitattributes": b""}))
            self.repos[key] = repo
        return JSONResponse({"url": url, "name": repo_id})

    async def _validate_yaml(self, request: Request) -> Response:
        return JSONResponse({})

    async def _preupload(self, request: Request) -> Response:
        repo = self._repo(request)
        if repo is None:
            return _error(404, "Repository not found", "RepoNotFound")
        files = (await request.json())["files"]
        head = repo.head.files
        return JSONResponse({"files": [
            {"path": f["path"], "uploadMode": "regular", "shouldIgnore": False,
             "oid": git_blob_id(head[f["path"]]) if f["path"] in head else None}
            for f in files
        ]})

    async def _commit(self, request: Request) -> Response:
        repo = self._writable(request)
        if isinstance(repo, Response):
            return repo
        lines = [json.loads(line) for line in (await request.body()).splitlines() if line.strip()]
        with self._lock:
            files = dict(repo.head.files)
            message = ""
            for line in lines:
                value = line["value"]
                if line["key"] == "header":
                    message = value["summary"]
                elif line["key"] == "file":
                    files[value["path"]] = base64.b64decode(value["content"])
                elif line["key"] == "deletedFile":
                    files.pop(value["path"], None)
                elif line["key"] == "deletedFolder":
                    folder = value["path"].rstrip("/") + "/"
                    files = {p: c for p, c in files.items() if not p.startswith(folder)}
                else:
                    return _error(400, f"this fake Hub does not take {line['key']!r} lines")
            commit = Commit(_sha(repo.repo_id, len(repo.commits)), message, files)
            repo.commits.append(commit)
        prefix = "" if repo.repo_type == "model" else f"{repo.repo_type}s/"
        return JSONResponse({"commitOid": commit.sha, "pullRequestUrl": None,
                             "commitUrl": f"{request.base_url}{prefix}{repo.repo_id}/commit/{commit.sha}"})

    async def _tag(self, request: Request) -> Response:
        repo = self._writable(request)
        if isinstance(repo, Response):
            return repo
        commit = repo.at(unquote(request.path_params["revision"]))
        if commit is None:
            return _error(404, "Invalid rev id", "RevisionNotFound")
        tag = (await request.json())["tag"]
        if tag in repo.tags:
            return _error(409, f"Tag {tag} already exists")
        repo.tags[tag] = commit.sha
        return JSONResponse({"name": tag})

    async def _info(self, request: Request) -> Response:
        repo = self._repo(request)
        if repo is None:
            return _error(404, "Repository not found", "RepoNotFound")
        commit = repo.at(unquote(request.path_params.get("revision", "main")))
        if commit is None:
            return _error(404, "Invalid rev id", "RevisionNotFound")
        return JSONResponse({
            "id": repo.repo_id, "sha": commit.sha, "private": False, "downloads": 0, "likes": 0, "tags": [],
            "siblings": [{"rfilename": path} for path in sorted(commit.files)],
        })

    async def _tree(self, request: Request) -> Response:
        repo = self._repo(request)
        if repo is None:
            return _error(404, "Repository not found", "RepoNotFound")
        commit = repo.at(unquote(request.path_params["revision"]))
        if commit is None:
            return _error(404, "Invalid rev id", "RevisionNotFound")
        under = request.path_params.get("path", "").strip("/")
        prefix = f"{under}/" if under else ""
        recursive = request.query_params.get("recursive") in ("1", "true", "True")
        entries: dict[str, dict[str, object]] = {}
        for path, content in sorted(commit.files.items()):
            if not path.startswith(prefix):
                continue
            rest = path[len(prefix):].split("/")
            for depth in range(1, len(rest)):
                folder = prefix + "/".join(rest[:depth])
                if recursive or depth == 1:
                    entries.setdefault(folder, {"type": "directory", "path": folder, "oid": _sha(folder, 0), "size": 0})
            if recursive or len(rest) == 1:
                entries[path] = {"type": "file", "path": path, "size": len(content), "oid": git_blob_id(content)}
        return JSONResponse(list(entries.values()))

    async def _resolve(self, request: Request) -> Response:
        repo = self._repo(request) if request.path_params["kind"] in _PREFIX else None
        if repo is None:
            return _error(404, "Repository not found", "RepoNotFound")
        commit = repo.at(unquote(request.path_params["revision"]))
        if commit is None:
            return _error(404, "Invalid rev id", "RevisionNotFound")
        path = unquote(request.path_params["path"])
        if path not in commit.files:
            return _error(404, "Entry not found", "EntryNotFound", commit=commit.sha)
        content = commit.files[path]
        headers = {"X-Repo-Commit": commit.sha, "ETag": f'"{git_blob_id(content)}"',
                   "Content-Length": str(len(content))}
        return Response(b"" if request.method == "HEAD" else content, headers=headers,
                        media_type="application/octet-stream")


class _Recorder:
    """ASGI middleware that notes each request's method and path on the hub."""

    def __init__(self, app, hub: FakeHub) -> None:  # noqa: ANN001 - an ASGI app
        self.app, self.hub = app, hub

    async def __call__(self, scope, receive, send) -> None:  # noqa: ANN001 - ASGI
        if scope["type"] == "http":
            self.hub.requests.append(f"{scope['method']} {scope['path']}")
        await self.app(scope, receive, send)


def _authorised(request: Request) -> bool:
    return request.headers.get("authorization", "").startswith("Bearer ")


def _error(status: int, message: str, code: str = "", commit: str = "") -> Response:
    headers = {"X-Error-Message": message}
    if code:
        headers["X-Error-Code"] = code
    if commit:
        headers["X-Repo-Commit"] = commit
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def _sha(repo_id: str, number: int) -> str:
    return hashlib.sha1(f"{repo_id}@{number}".encode()).hexdigest()
