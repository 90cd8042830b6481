"""The Python module's contract: every command is a function whose result's to_dict() is the
command line's --format json output; bad input raises ridge.InputError with the command line's
message; results show themselves in Jupyter; memory stays flat over many calls.

Run by ctest (Python.Module) with PYTHONPATH at <build>/python and RIDGE_BINARY the binary."""

import json
import os
import subprocess
import threading
import time

import pytest

import ridge

BINARY = os.environ["RIDGE_BINARY"]
SOURCE = os.environ["RIDGE_SOURCE_DIR"]
H200 = os.path.join(SOURCE, "docs/measurements/h200-2026-11-30/h200.json")


def cli(*args):
    """The binary's --format json output, parsed, and its exit code."""
    done = subprocess.run([BINARY, "--format", "json", *args], capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


# (the Python call, the same command line): one or more per command of the tree.
CASES = [
    (lambda: ridge.op("gemm", m=4096, n=4096, k=4096, dtype="fp16", device="h100-sxm"),
     ["op", "gemm", "--m", "4096", "--n", "4096", "--k", "4096", "--dtype", "fp16",
      "--device", "h100-sxm"]),
    (lambda: ridge.op("gemv", m=8192, n=8192), ["op", "gemv", "--m", "8192", "--n", "8192"]),
    (lambda: ridge.op("add", n=1 << 26, device="b200"),
     ["op", "add", "--n", str(1 << 26), "--device", "b200"]),
    (lambda: ridge.op("attention", seq=4096, d_head=128, heads=32),
     ["op", "attention", "--seq", "4096", "--d-head", "128", "--heads", "32"]),
    (lambda: ridge.op("decode", params=7e9, batch=8),
     ["op", "decode", "--params", "7000000000", "--batch", "8"]),
    (lambda: ridge.model("llama-3.1-8b", device="h100-sxm", batch=16, prompt=1024, gen=256),
     ["model", "--model", "llama-3.1-8b", "--device", "h100-sxm", "--batch", "16",
      "--prompt", "1024", "--gen", "256"]),
    (lambda: ridge.model("deepseek-v3", device="h200-sxm", ep=8, batch=64, cuda_graphs=True),
     ["model", "--model", "deepseek-v3", "--device", "h200-sxm", "--ep", "8", "--batch", "64",
      "--cuda-graphs"]),
    (lambda: ridge.models(), ["models"]),
    (lambda: ridge.collective("allreduce", bytes=14e9, gpus_per_node=8, nodes=2),
     ["collective", "allreduce", "--bytes", "14000000000", "--gpus-per-node", "8",
      "--nodes", "2"]),
    (lambda: ridge.collective("alltoall", bytes="1G", device="h200-sxm"),
     ["collective", "alltoall", "--bytes", "1G", "--device", "h200-sxm"]),
    (lambda: ridge.devices(vendor="amd", sort="ridge"),
     ["devices", "--vendor", "amd", "--sort", "ridge"]),
    (lambda: ridge.device("h100-sxm"), ["device", "show", "h100-sxm"]),
    (lambda: ridge.compare(devices=["v100-sxm2", "h100-sxm", "b200"]),
     ["compare", "--devices", "v100-sxm2,h100-sxm,b200"]),
    (lambda: ridge.occupancy(blocks=133), ["occupancy", "--blocks", "133"]),
    (lambda: ridge.parallel(model="llama-3.1-70b", tp=8, pp=2, dp=4),
     ["parallel", "--model", "llama-3.1-70b", "--tp", "8", "--pp", "2", "--dp", "4"]),
    (lambda: ridge.tour(), ["tour"]),
    (lambda: ridge.validate(), ["validate"]),
]


@pytest.mark.parametrize("call,argv", CASES, ids=[" ".join(a[:2]) for _, a in CASES])
def test_to_dict_is_the_command_lines_json(call, argv):
    assert call().to_dict() == cli(*argv)


def test_every_command_has_a_function():
    tree = ridge._ridge.commands()["subcommands"]
    for name in tree:
        assert callable(getattr(ridge, name)), name
        assert name in ridge.__all__
    # profile: test_profile.py
    tested = {argv[0] for _, argv in CASES} | {"chart", "report", "measure", "lab", "doctor",
                                              "profile"}
    assert set(tree) <= tested, set(tree) - tested


def test_sweeps_return_a_list_of_results():
    rows = ridge.model("llama-2-7b", sweep={"batch": [1, 8, 64]})
    assert isinstance(rows, list) and len(rows) == 3
    assert [r.batch for r in rows] == [1, 8, 64]
    assert rows.to_dict() == cli("model", "--model", "llama-2-7b", "--sweep", "batch=1,8,64")
    assert rows[2].tokens_per_s > rows[0].tokens_per_s
    sizes = ridge.collective("allreduce", sweep_bytes="1M..16M")
    assert len(sizes) == 5


def test_attributes_read_the_main_figures():
    r = ridge.op("gemm", m=4096, n=4096, k=4096, dtype="fp16", device="h100-sxm")
    assert r.bound == "compute"
    assert r.intensity == pytest.approx(4096 ** 3 * 2 / (3 * 4096 * 4096 * 2))
    assert r.time_s == r["time_s"] > 0
    assert "calibration" in r
    with pytest.raises(AttributeError, match="no figure 'speed'"):
        r.speed


def test_bad_input_raises_input_error_with_the_cli_message():
    done = subprocess.run([BINARY, "op", "gemm", "--m", "4096", "--n", "4096", "--k", "0"],
                          capture_output=True, text=True)
    with pytest.raises(ridge.InputError) as e:
        ridge.op("gemm", m=4096, n=4096, k=0)
    assert isinstance(e.value, ValueError)
    assert "ridge: error: " + str(e.value) + "\n" == done.stderr
    with pytest.raises(ridge.InputError, match="not in the catalog|h100"):
        ridge.op("gemm", m=1, n=1, k=1, device="h100")
    with pytest.raises(ridge.InputError, match="no option bogus"):
        ridge.op("gemm", m=1, n=1, k=1, bogus=3)
    with pytest.raises(ridge.InputError, match="name one of"):
        ridge.op()
    with pytest.raises(ridge.InputError, match="is a flag"):
        ridge.model("llama-2-7b", no_flash="yes")
    with pytest.raises(ridge.InputError, match="does not divide the 256 routed experts"):
        ridge.model("deepseek-v3", device="h200-sxm", ep=7)
    with pytest.raises(ridge.InputError):
        ridge.load_device(os.path.join(SOURCE, "no-such-file.toml"))


def test_reprs_for_jupyter():
    r = ridge.op("gemm", m=64, n=64, k=64)
    assert "ridge.op/1" in repr(r)
    html = r._repr_html_()
    assert html.count("<table>") >= 1 and "intensity" in html
    model = ridge.model("llama-2-7b")
    assert "<h4>" in model._repr_html_() or "<table>" in model._repr_html_()
    chart = ridge.chart(devices=["h100-sxm"], op=["gemm m=4096 n=4096 k=4096"])
    assert chart._repr_svg_().startswith("<svg")
    done = subprocess.run([BINARY, "chart", "--devices", "h100-sxm", "--op",
                           "gemm m=4096 n=4096 k=4096"], capture_output=True, text=True)
    assert chart.to_dict() == {"svg": done.stdout}
    page = ridge.report(devices=["h100-sxm"], op=["decode params=7e9 batch=8"])
    assert page.html.startswith("<!DOCTYPE html>") or "<html" in page.html
    assert "<iframe" in page._repr_html_()


def test_load_device_and_use_it(tmp_path):
    gpu = ridge.load_device(H200)
    assert gpu.id == "h200"
    assert gpu.to_dict() == cli("--device-file", H200, "device", "show", "h200")
    r = ridge.op("gemm", m=256, n=16384, k=16384, dtype="bf16", device=gpu)
    assert r.to_dict() == cli("--device-file", H200, "op", "gemm", "--m", "256", "--n", "16384",
                              "--k", "16384", "--dtype", "bf16", "--device", "h200")
    assert r.calibration["extrapolated"] is False


def test_to_pandas():
    pandas = pytest.importorskip("pandas")
    frame = ridge.model("llama-2-7b", sweep={"batch": [1, 8]}).to_pandas()
    assert isinstance(frame, pandas.DataFrame) and list(frame["batch"]) == [1, 8]


def resident_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_ten_thousand_calls_keep_memory_flat():
    for _ in range(1000):
        ridge.op("gemm", m=4096, n=4096, k=4096)
    before = resident_bytes()
    for i in range(10000):
        ridge.op("gemm", m=64 + i % 7, n=4096, k=4096)
    assert resident_bytes() - before < 8 << 20


def test_calibrations_given_to_one_call_do_not_stay(tmp_path):
    # The shipped Hopper profile, made to speak for the RTX 5090, which has none of its own.
    with open(os.path.join(SOURCE, "data/calibration/hopper.toml")) as f:
        text = f.read().replace('id = "hopper"', 'id = "mine"', 1)
    text = "\n".join('devices = ["rtx-5090"]' if line.startswith("devices =") else line
                     for line in text.splitlines())
    profile = tmp_path / "mine.toml"
    profile.write_text(text)
    with_profile = ridge.op("gemm", m=64, n=64, k=64, device="rtx-5090", calibration=str(profile))
    assert with_profile.calibration["id"] == "mine"
    without = ridge.op("gemm", m=64, n=64, k=64, device="rtx-5090")
    assert "calibration" not in without
    # A session that fails on its second profile forgets the first as well.
    with pytest.raises(ridge.InputError, match="missing.toml"):
        ridge.op("gemm", m=64, n=64, k=64, device="rtx-5090",
                 calibration=[str(profile), str(tmp_path / "missing.toml")])
    assert "calibration" not in ridge.op("gemm", m=64, n=64, k=64, device="rtx-5090")
    assert without.to_dict() == cli("op", "gemm", "--m", "64", "--n", "64", "--k", "64",
                                    "--device", "rtx-5090")


def test_measure_runs_with_the_gil_released():
    result = {}
    worker = threading.Thread(target=lambda: result.update(m=ridge.measure(quick=True)))
    ticks = 0
    worker.start()
    while worker.is_alive():
        ticks += 1
        time.sleep(0.01)
    assert result["m"]["schema"] == "ridge.measurement/1"
    assert ticks > 10  # this thread ran while the suite measured
    assert ridge.lab()["schema"] == "ridge.lab/1"


def test_doctor_lists_the_backends():
    assert set(ridge.doctor().to_dict()) == set(cli("doctor"))
