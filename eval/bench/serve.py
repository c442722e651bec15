"""Serve the HTTP API alone (no Gradio UI) over one index, for the throughput benchmark:
`python -m eval.bench.serve --index DIR --port N` (DIR or a `postgresql://...` address). The query encoder is loaded before serving,
and searches run on `config.SEARCH_THREADS` threads, as `app.py` does (`Indexes.load_encoders`)."""

from __future__ import annotations

import argparse
import sys

from search import config


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--index", default=str(config.DEFAULT_INDEX_DIR), help="index directory, or postgresql://...[#SCHEMA]")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args(argv)

    import uvicorn

    from search.api.http import make_api
    from search.api.indexes import Indexes
    from search.api.service import SearchService
    from search.api.startup import long_lived
    from search.engine.engine import Engine
    from search.index.manifest import IndexLoadError
    from search.index.store import opening_index

    try:
        with long_lived():
            with opening_index(args.index) as index:
                engine = Engine(index)
            indexes = Indexes.single(SearchService.from_engine(engine))
            indexes.load_encoders()
            api = make_api(indexes)
    except IndexLoadError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    uvicorn.run(api, host=args.host, port=args.port, log_level="warning")
    return 0


if __name__ == "__main__":
    sys.exit(main())
