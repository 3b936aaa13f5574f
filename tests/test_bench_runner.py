"""`make bench` runs every benchmark and writes their figures to benchmarks/RESULTS.md (benchmarks/run.py)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _runner():
    spec = importlib.util.spec_from_file_location("bench_run", ROOT / "benchmarks" / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_benchmark_of_the_folder_is_run_bench_py_first():
    scripts = _runner().benchmarks()
    names = [p.name for p in scripts]
    assert names[0] == "bench.py"
    assert sorted(names) == sorted(p.name for p in (ROOT / "benchmarks").iterdir()
                                   if p.name.startswith("bench") and p.suffix == ".py")
    assert "run.py" not in names
    assert "benchmarks/run.py" in (ROOT / "Makefile").read_text()


def test_results_hold_every_output_and_a_failure_says_so(tmp_path):
    (tmp_path / "bench.py").write_text("print('1,234 games per second (target 1,000)')\n")
    (tmp_path / "bench_broken.py").write_text("print('half way')\nraise SystemExit(3)\n")
    out = tmp_path / "RESULTS.md"
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "run.py"), "--out", str(out),
                           str(tmp_path / "bench.py"), str(tmp_path / "bench_broken.py")],
                          capture_output=True, text=True)
    assert done.returncode == 3
    assert "1,234 games per second" in done.stdout and "half way" in done.stdout  # shown as it runs
    text = out.read_text()
    assert text.startswith("# Benchmark results\n")
    assert "## bench.py\n\n```text\n1,234 games per second (target 1,000)\n```" in text
    assert "## bench_broken.py\n\n**Failed** (exit status 3); its output up to then:\n\n```text\nhalf way\n```" in text
