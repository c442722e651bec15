"""`python -m search load-postgres` and `--index postgresql://...`: what is written, and bad
input refused in one line with a nonzero exit."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from search.__main__ import main
from search.index.manifest import IndexLoadError
from search.index.postgres.load import require_extension
from search.index.postgres.schema import REGISTRY, schema_name, words
from search.index.store import open_index

pytestmark = pytest.mark.postgres


def test_words_survive_postgres_parser(postgres: str) -> None:
    """Every token of the tokenizer comes back from the `simple` configuration as itself."""
    tokens = ["nat.succ_le_succ", "mul", "comm", "∑", "x₁", "2", "it's", "l'hôpital", "a1b", "x0"]
    with psycopg.connect(postgres) as connection:
        vector = connection.execute("SELECT to_tsvector('simple', %s)::text", (words(tokens),)).fetchone()[0]
    lexemes = [item.split("'")[1] for item in vector.split(" ")]
    assert sorted(lexemes) == sorted(words(tokens).split())
    assert len(set(lexemes)) == len(tokens)


def test_cli_loads_into_a_schema_named_after_the_version(postgres: str, small_index: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["load-postgres", str(small_index), "--dsn", postgres]) == 0
    index = open_index(postgres)  # the schema loaded last
    schema = schema_name(index.manifest)
    assert f"#{schema}: 15 records, 30 vectors" in capsys.readouterr().out
    assert str(index.directory).endswith(f"#{schema}")
    with psycopg.connect(postgres) as connection:
        version = connection.execute(f"SELECT version FROM {REGISTRY} WHERE schema = %s", (schema,)).fetchone()[0]
        indexes = {row[0] for row in connection.execute(
            "SELECT indexdef FROM pg_indexes WHERE schemaname = %s", (schema,)).fetchall()}
        rows = connection.execute(f'SELECT count(*), sum(dependents) FROM "{schema}".records').fetchone()
        terms = dict(connection.execute(f'SELECT part, count(*) FROM "{schema}".terms GROUP BY part').fetchall())
    assert version == index.version
    assert terms.keys() == {"lexical", "name_words"} and min(terms.values()) > 10
    assert any("USING bm25 (lexical)" in d for d in indexes) and any("USING hnsw (embedding vector_ip_ops)" in d
                                                                   for d in indexes)
    assert any('("group")' in d for d in indexes)
    assert rows == (15, int(index.dependents.sum()))


def test_cli_query_reads_a_postgres_index(postgres: str, small_index: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    main(["load-postgres", str(small_index), "--dsn", postgres, "--schema", "for_query"])
    capsys.readouterr()
    assert main(["query", "mul_comm", "--index", f"{postgres}#for_query", "-k", "1"]) == 0
    assert "1. mul_comm  (mathlib:mul_comm)" in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["load-postgres", "{index}", "--dsn", "postgresql://nobody:secret@127.0.0.1:1/none"],
     "PostgreSQL could not be reached"),
    (["load-postgres", "{tmp}", "--dsn", "{dsn}"], "no manifest.json"),
    (["query", "x", "--index", "{dsn}#no_such_schema"], "has no index no_such_schema"),
    (["query", "x", "--index", "postgresql://nobody:secret@127.0.0.1:1/none"], "PostgreSQL could not be reached"),
])
def test_bad_input_is_one_line_and_a_nonzero_exit(postgres: str, small_index: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str], args: list[str],
                                                 message: str) -> None:
    filled = [a.format(index=small_index, tmp=tmp_path, dsn=postgres) for a in args]
    assert main(filled) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err and "Traceback" not in err
    assert "secret" not in err


def test_a_database_without_an_index_says_how_to_load_one(postgres: str) -> None:
    with psycopg.connect(postgres, autocommit=True) as connection:
        connection.execute("DROP DATABASE IF EXISTS empty")
        connection.execute("CREATE DATABASE empty")
    with pytest.raises(IndexLoadError, match="holds no index: load one with python -m search load-postgres"):
        open_index(postgres.replace("/postgres?", "/empty?"))


def test_a_missing_extension_is_named(postgres: str) -> None:
    with psycopg.connect(postgres, autocommit=True) as connection:
        with pytest.raises(IndexLoadError, match="cannot provide the extension no_such_extension"):
            require_extension(connection, "no_such_extension")


def test_an_index_loaded_from_another_format_says_to_load_a_rebuilt_one(postgres: str, small_index: Path) -> None:
    main(["load-postgres", str(small_index), "--dsn", postgres, "--schema", "older_format"])
    with psycopg.connect(postgres) as connection:
        connection.execute("UPDATE older_format.info SET value = jsonb_set(value, '{format_version}', '1') "
                           "WHERE key = 'manifest'")
    with pytest.raises(IndexLoadError, match="index of format 1, this code reads format 2: load a rebuilt index"):
        open_index(f"{postgres}#older_format")
