"""The performance benchmark (`python -m eval bench [build|latency|throughput|scale|profile|postgres|all]`).

One module per measurement: `build` (index build per stage at growing corpus sizes), `latency`
(query latency end to end and per stage, warm and first query), `throughput` (the HTTP API under
concurrent clients, and the app's cold start), `scale` (synthetic 1M/10M statements: vector index
designs from FAISS factory strings with `ann`, BM25 with `synthetic` documents), `profile` (py-spy),
`postgres` (the index served from PostgreSQL beside its directory, and synthetic vectors in
pgvector under the backend's HNSW indexes). `measure` holds
what they share (child processes with their peak memory, percentiles, the machine), `report`
writes `eval/results/bench.{md,json}` and `figures/bench_scale.png`, `cli` wires the command.
Every measurement that needs its own memory figure runs in a child process (`worker`).
"""
