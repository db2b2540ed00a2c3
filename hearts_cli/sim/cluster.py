"""``hearts sim --cluster``: the games of a run played as tasks of a Ray cluster.

A cluster is one more :class:`~hearts_cli.bots.match.Mapper`: an ordered, lazy ``map``.
Jobs (one rotation of one game each) go out in batches of :data:`BATCH`, one Ray task a
batch, with a few batches in flight for every CPU of the cluster; results come back in
the order of the jobs, whatever order the tasks end in. So the games kept, the report,
the ratings and the results file are byte for byte those of the same run on one
machine: where a run stops depends on the seed alone (:mod:`hearts_cli.bots.tournament`).

Ray is an optional extra (``pip install 'hearts-cli[cluster]'``), imported only here,
only when ``--cluster`` is given. See docs/sim.md, "On a cluster".
"""

from __future__ import annotations

import collections
import itertools
import logging
import os
from collections.abc import Callable, Iterable, Iterator
from types import ModuleType
from typing import TYPE_CHECKING, TypeVar

from ..bots.match import run_batch
from ..model.errors import HeartsError

if TYPE_CHECKING:  # (a Protocol the type checker alone knows)
    from ..bots.match import Mapper

_J = TypeVar("_J")
_R = TypeVar("_R")

BATCH = 4  # jobs a task: a task costs about a millisecond to send and collect, a game rotation 5 to 500
IN_FLIGHT = 2  # batches in flight for each CPU of the cluster


def _ray() -> ModuleType:
    try:
        import ray
    except ImportError:
        raise HeartsError("sim_no_ray") from None
    return ray


def cluster_mapper(address: str, workers: int) -> Mapper:
    """The ordered map of a Ray cluster at ``address`` (``auto``, ``local`` or ``ray://HOST:PORT``,
    checked by the command line); Ray is started when the first job is sent and stopped when the map is closed."""
    if address.startswith("ray://"):
        _token_if_any()  # (before Ray is imported: it reads its mode then)
    ray = _ray()

    def mapper(fn: Callable[[_J], _R], jobs: Iterable[_J]) -> Iterator[_R]:
        _start(ray, address, workers)
        task = ray.remote(run_batch)
        capacity = max(1, int(ray.cluster_resources().get("CPU", 1)))
        pending: collections.deque[object] = collections.deque()
        it = iter(jobs)

        def send() -> bool:
            batch = list(itertools.islice(it, BATCH))
            if batch:
                pending.append(task.remote(fn, batch))
            return bool(batch)

        try:
            for _ in range(IN_FLIGHT * capacity):
                if not send():
                    break
            while pending:
                results = ray.get(pending.popleft())
                send()
                yield from results
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)
            ray.shutdown()

    return mapper


def _token_if_any() -> None:
    """Ray Client sends the cluster's token only in Ray's token mode; a cluster started with
    ``ray start`` (Ray 2.59 and newer) requires one. When a token is at hand (``RAY_AUTH_TOKEN``,
    ``RAY_AUTH_TOKEN_PATH``, or the file ``ray start`` writes, ``~/.ray/auth_token``) and no
    mode is chosen, the token mode is taken (an explicit ``RAY_AUTH_MODE`` is left alone)."""
    if os.environ.get("RAY_AUTH_MODE"):
        return
    have = os.environ.get("RAY_AUTH_TOKEN") or os.environ.get("RAY_AUTH_TOKEN_PATH") \
        or os.path.isfile(os.path.expanduser("~/.ray/auth_token"))
    if have:
        os.environ["RAY_AUTH_MODE"] = "token"


def _start(ray: ModuleType, address: str, workers: int) -> None:
    """Ray started or joined, quietly: no dashboard, the workers' logs kept to themselves."""
    options: dict[str, object] = {"include_dashboard": False, "log_to_driver": False,
                               "logging_level": logging.ERROR}
    try:
        if address == "local":
            ray.init(address="local", num_cpus=workers, **options)
        elif address == "auto":
            ray.init(**options)
        else:
            ray.init(address=address, log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError) as e:
        raise HeartsError("sim_cluster_unreachable", address=address, problem=str(e).splitlines()[0][:200]) \
            from None
