"""`ridge profile` on real profiler output: every launch accounted for (count and total time
equal to the file's own sums, computed here with Python's own gzip, json and csv), the FLOPs of
each aten::mm recovered from the shapes a PyTorch profiler recorded on this machine, and
ridge.profile's to_dict() equal to the command line's JSON."""

import csv
import gzip
import json
import os
import subprocess
import sys

import pytest

import ridge

SOURCE = os.environ["RIDGE_SOURCE_DIR"]
BINARY = os.environ["RIDGE_BINARY"]
PROFILES = os.path.join(SOURCE, "tests/data/profiles")
CUPTI = os.path.join(PROFILES, "hta__cupti_profiler__benchmark_result_924719_1679055439_trace.json.gz")
TRITON = os.path.join(PROFILES, "hta__triton_example__triton_example.json.gz")
NCU = os.path.join(PROFILES, "learningnote4dev__ncu_sgemm_cc80.csv")


def gpu_sums(path, categories):
    with gzip.open(path) as f:
        events = [e for e in json.load(f)["traceEvents"] if e.get("cat") in categories]
    return len(events), sum(e["dur"] for e in events) * 1e-6


@pytest.mark.parametrize("path,categories", [
    (CUPTI, {"cuda_profiler_range"}),
    (TRITON, {"kernel", "gpu_memcpy", "gpu_memset"}),
])
def test_every_launch_of_a_trace_is_accounted_for(path, categories):
    count, seconds = gpu_sums(path, categories)
    r = ridge.profile(path, device="a100-sxm-40gb")
    assert r.launches == count == sum(k["count"] for k in r.kernels)
    assert r.total_time_s == pytest.approx(seconds, rel=1e-12)
    assert sum(k["time_s"] for k in r.kernels) == pytest.approx(seconds, rel=1e-12)


def test_every_kernel_of_the_ncu_csv_is_accounted_for():
    with open(NCU, newline="") as f:
        rows = list(csv.DictReader(f))
    value = lambda row: float(row["Metric Value"].replace(",", ""))
    cycles = {r["ID"]: value(r) for r in rows if r["Metric Name"] == "smsp__cycles_elapsed.avg"}
    rate = {r["ID"]: value(r) for r in rows
            if r["Metric Name"] == "smsp__cycles_elapsed.avg.per_second"}
    r = ridge.profile(NCU, device="a100-sxm-40gb")
    assert r.launches == len(cycles) == 3
    assert r.total_time_s == pytest.approx(sum(cycles[i] / rate[i] for i in cycles), rel=1e-12)


def test_a_kernel_without_counters_or_shapes_has_unknown_flops():
    r = ridge.profile(TRITON, device="a100-sxm-40gb")
    (kernel,) = r.kernels
    assert kernel["name"] == "triton_poi_fused_add_cos_sin_0"
    assert kernel["family"] == "element-wise"
    assert kernel["flops"] is None and kernel["intensity"] is None
    assert kernel["flops_source"].startswith("unknown")


def test_a_gpu_the_catalog_does_not_know_needs_a_device():
    with pytest.raises(ridge.InputError, match="'NVIDIA A100-PG509-200' is no catalog device"):
        ridge.profile(TRITON)


def test_the_module_gives_the_command_lines_json():
    done = subprocess.run([BINARY, "--format", "json", "profile", CUPTI, "--device",
                           "a100-sxm-40gb", "--group", "family"], capture_output=True, text=True)
    assert ridge.profile(CUPTI, device="a100-sxm-40gb", group="family").to_dict() == \
        json.loads(done.stdout)


@pytest.fixture(scope="module")
def cpu_traces(tmp_path_factory):
    pytest.importorskip("torch")
    out = tmp_path_factory.mktemp("traces")
    subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "make_cpu_traces.py"),
                    str(out)], check=True)
    return out


def top_level_sum(events):
    """The file's own sum: the durations of the operators no other encloses on their thread."""
    events = sorted(events, key=lambda e: (str(e["tid"]), e["ts"], -e["dur"]))
    total, end = 0.0, {}
    for e in events:
        thread = str(e["tid"])
        if e["ts"] >= end.get(thread, float("-inf")):
            total += e["dur"]
            end[thread] = e["ts"] + e["dur"]
    return total * 1e-6


@pytest.mark.parametrize("name", ["torch_export.json", "kineto.json", "shapes_only.json"])
def test_cpu_traces_are_accounted_for(cpu_traces, name):
    with open(cpu_traces / name) as f:
        data = json.load(f)
    events = data if isinstance(data, list) else data["traceEvents"]
    events = [e for e in events if e.get("ph") == "X"]
    r = ridge.profile(str(cpu_traces / name), device="xeon-6980p")
    assert r.launches == len(events)
    assert r.total_time_s == pytest.approx(top_level_sum(events), rel=1e-9)


@pytest.mark.parametrize("name", ["kineto.json", "shapes_only.json"])
def test_each_mm_has_its_flops_exactly(cpu_traces, name):
    with open(cpu_traces / "expected.json") as f:
        mms = json.load(f)["mm"]
    assert all(m["flops"] == m["profiler_flops"] for m in mms)
    r = ridge.profile(str(cpu_traces / name), device="xeon-6980p")
    (mm,) = [k for k in r.kernels if k["name"] == "aten::mm"]
    assert mm["count"] == len(mms) == 6
    assert mm["flops"] == sum(m["flops"] for m in mms)
    source = "Input Dims" if name == "shapes_only.json" else "profiler's flops"
    assert source in mm["flops_source"]
    # Bytes from the shapes: A, B and C once each, float32.
    assert mm["bytes"] == sum(4 * (a[0] * a[1] + b[0] * b[1] + a[0] * b[1])
                              for a, b in (m["dims"] for m in mms))
