"""Search engines behind one interface, for comparing ours with others (the judged evaluation).

Every engine answers `search(query, k) -> list[Hit]` (`base`), raising `EngineFailure` when it
could not answer and `QueryRejected` when the service answered that it cannot take the query:
- `ours`: our engine in process, in any ranking variant;
- `leansearch`, `loogle`, `moogle`, `leanexplore`: HTTP clients of those services (`http`
  bounds their timeouts and retries); each module documents the service's response format;
- `replay`: saved result lists of a service that is gone (Moogle), read back as answers.
`cache` stores every remote answer on disk with the time it was fetched, so a comparison can be
replayed offline; `registry` builds engines from names such as `ours:bm25` or `leansearch`.
"""
