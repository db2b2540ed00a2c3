"""Where the games of a run are played: here, in worker processes, or on a Ray cluster.

Each is a :class:`~hearts_cli.bots.match.Mapper`, an ordered, lazy ``map``: the results come
back in the order of the jobs, so the games kept depend on the seed alone.
"""

from __future__ import annotations

import collections
import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import TYPE_CHECKING, TypeVar

from .cluster import cluster_mapper

if TYPE_CHECKING:  # (a Protocol the type checker alone knows)
    from ..bots.match import Mapper

_J = TypeVar("_J")
_R = TypeVar("_R")


def process_mapper(workers: int) -> Mapper:
    """An ordered, lazy ``map`` over ``workers`` spawned processes.

    It keeps ``2 * workers`` jobs in flight; when the consumer closes it, the
    jobs not started are cancelled and the pool waits for the running ones.
    """

    def mapper(fn: Callable[[_J], _R], jobs: Iterable[_J]) -> Iterator[_R]:
        pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
        pending: collections.deque[Future[_R]] = collections.deque()
        it = iter(jobs)
        try:
            for job in it:
                pending.append(pool.submit(fn, job))
                if len(pending) >= 2 * workers:
                    break
            while pending:
                result = pending.popleft().result()
                for job in it:
                    pending.append(pool.submit(fn, job))
                    break
                yield result
        finally:
            pool.shutdown(wait=True, cancel_futures=True)

    return mapper


def mapper_of(workers: int, cluster: str | None) -> Mapper | None:
    """Where the games are played: a Ray cluster (``--cluster``), worker processes, or here (None)."""
    if cluster is not None:
        return cluster_mapper(cluster, workers)
    return process_mapper(workers) if workers > 1 else None
