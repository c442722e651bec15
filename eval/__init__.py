"""Evaluation of the search engine (`python -m eval`).

- `querysets`: labelled query sets (MathlibQR, JSON lines) -> `LabelledQuery` lists;
- `metrics`: judging a ranked list into binary relevance, per-query P/Hit/MRR/nDCG/Recall;
- `stats`: bootstrap intervals, paired permutation tests, breakdowns by query group;
- `retrieval`: every query through `Engine.search` for each ranking variant;
- `report`: Markdown and JSON under `eval/results/`, bar charts under `figures/`.
"""
