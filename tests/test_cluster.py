"""``hearts sim --cluster``: a tournament on a Ray cluster is the same run as on one machine,
byte for byte (its times aside): the report, the ratings, the results file."""

from __future__ import annotations

import re
import sys

import pytest
from conftest import assert_user_error, run

pytestmark = pytest.mark.usefixtures("isolated")


def _timeless(report: str) -> str:
    return re.sub(r"\d+\.\d s\b", "<SECONDS> s", report)


def test_a_ray_cluster_of_two_workers_plays_the_run_of_one_machine(tmp_path, monkeypatch):
    ray = pytest.importorskip("ray")  # the cluster extra: installed by `make test` (the test extra holds it)
    collected: list[object] = []
    get = ray.get
    monkeypatch.setattr(ray, "get", lambda ref: collected.append(ref) or get(ref))  # the results came from Ray
    args = ["--gauntlet", "normal,easy,random", "--deals", "12", "--seed", "ray1", "--plain"]
    here = run("sim", *args, "--results", str(tmp_path / "here.jsonl"))
    there = run("sim", *args, "--results", str(tmp_path / "there.jsonl"), "--cluster", "local", "--workers", "2")
    assert here.exit_code == there.exit_code == 0, (there.stdout, there.stderr)
    assert "Elo" in here.stdout and len(collected) >= 3
    assert _timeless(there.stdout) == _timeless(here.stdout)
    assert (tmp_path / "there.jsonl").read_bytes() == (tmp_path / "here.jsonl").read_bytes()


def test_a_cluster_that_cannot_be_used_is_one_sentence(monkeypatch):
    assert_user_error(run("sim", "--seats", "easy,easy,easy,easy", "--cluster", "ray:/x"), "auto, local or ray://")
    monkeypatch.setitem(sys.modules, "ray", None)  # as without the cluster extra
    assert_user_error(run("sim", "--seats", "easy,easy,easy,easy", "--cluster", "auto"), "hearts-cli[cluster]")
