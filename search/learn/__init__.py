"""Models of what the corpus holds, learned from data made from the corpus itself (never from an
evaluation query set): queries made from declarations' own texts against an index that has not
seen them (`heldout`), and the reranker trained on them (`reranker`)."""
