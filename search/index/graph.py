"""The dependency graph's structure signals: PageRank and dependents counts.

A statement many others use (`mul_comm`, `Finset.sum_comm`) is more often the one a user
wants; these priors break ties between otherwise similar matches.
"""

from __future__ import annotations

from typing import Sequence

import networkx as nx
import numpy as np

from search.record import Statement


def dependency_graph(statements: Sequence[Statement]) -> nx.DiGraph:
    """Edges from a record to each record it depends on (nodes are record positions)."""
    position = {s.id: i for i, s in enumerate(statements)}
    graph = nx.DiGraph()
    graph.add_nodes_from(range(len(statements)))
    graph.add_edges_from(
        (i, position[dep]) for i, s in enumerate(statements) for dep in s.deps if dep in position
    )
    return graph


def structure_scores(statements: Sequence[Statement]) -> tuple[np.ndarray, np.ndarray]:
    """(PageRank, dependents count) per record, aligned with `statements`."""
    graph = dependency_graph(statements)
    if graph.number_of_nodes() == 0:
        return np.zeros(0, dtype=np.float32), np.zeros(0, dtype=np.int32)
    ranks = nx.pagerank(graph, alpha=0.85, tol=1e-8)
    pagerank = np.array([ranks[i] for i in range(len(statements))], dtype=np.float32)
    dependents = np.array([graph.in_degree(i) for i in range(len(statements))], dtype=np.int32)
    return pagerank, dependents
