#!/usr/bin/env python3
"""Writes validation tables from what scripts/gpu-check.sh measured and docs/measurements keeps,
as `ridge validate` reads them:

- from ridge's own measurement (`ridge measure --backend cuda`), its GEMM shape sweep: every
  point's median time, a GEMM table;
- from PyTorch's figures (scripts/torch_reference.py), its element-wise sweep: every size's
  median time a call, an element-wise table.

    scripts/import-gpu-check.py FILE.json CATALOG_ID OUT.tsv

FILE.json is the file under docs/measurements (its path is written into the header as the
source, so give it relative to the repository's root); which table it makes follows from what
it holds. CATALOG_ID is the catalog part the measured GPU is (the header says so, in a `# ridge:
device` line). The shipped tables were made by

    scripts/import-gpu-check.py docs/measurements/h200-2026-12-04/h200.json h200-sxm \\
        data/validation/gemm_ridge_h200_sweep.tsv
    scripts/import-gpu-check.py docs/measurements/h200-2026-12-04/torch-elementwise.json \\
        h200-sxm data/validation/elementwise_torch_h200_mul.tsv
"""

import json
import pathlib
import sys

# The sweep's precisions as a validation table names them: fp8 is e4m3 inputs into a bf16
# output (src/measure/cuda/tensor_gemm.cc, gemm_types).
GEMM_DTYPES = {"fp16": "fp16", "bf16": "bf16", "fp8": "fp8_e4m3->bf16"}

GEMM_HEADER = """\
# Source: {path} (ridge measure --backend cuda on {gpu}, {created}; scripts/gpu-check.sh, whose run the folder keeps whole). Added by ridge with scripts/import-gpu-check.py; held out (no figure of ridge's was fitted to it).
# Conditions: cuBLASLt as a framework's linear layer issues y = x W^T (x m by k, W n by k, row-major: to cuBLAS y^T = W x^T, TN), the heuristic's first algorithm, groups > 1 one strided batched call; operands of uniform random values, each point's result checked against the host on sampled elements. Timed by CUDA events over calls back to back from the host on the same operands and output: warm-ups, then 15 samples of at least 10 ms each (src/measure/cuda/gpu_timing.cc).
# Columns: time_us = 2 m n k groups over the median of the samples' rates (the median sample: 15 of them), as the measurement's flops_per_s gives it.
# ridge: replayed_copies = 1 (each call reads the same operands and writes the same output: what of them the L2 holds it holds from the call before)
# ridge: device {gpu} = {device} ({why})
groups\tm\tn\tk\tdtype\tdevice\ttime_us"""

ELEMENTWISE_HEADER = """\
# Source: {path} (PyTorch {torch} on {gpu}, timed by scripts/torch_reference.py; the folder's README says when and how it was run). Added by ridge with scripts/import-gpu-check.py; a fit set (below).
# Conditions: torch.mul(x, 2.0, out=y) over bf16 tensors of `elements` elements (one element-wise kernel a call: each element read once and written once), 20 calls captured in one CUDA graph on the same x and y, the graph replayed back to back: warm-ups, then 15 samples of at least 10 ms each, timed by CUDA events.
# Columns: time_us = one call's share of a replay, over the median of the samples.
# ridge: replayed_copies = 1 (every call reads the same x and writes the same y: what of them the L2 holds it holds from the call before)
# ridge: graph_captured = yes (the 20 calls are one CUDA graph)
# ridge: graph_calls = 20 (20 calls a replay, the time over 20)
# ridge: role = fit (the hopper profile's fixed.graph_repeat_floor is fitted to its rows of 64 Ki elements and fewer: scripts/fit-calibration.py)
# ridge: device {gpu} = {device} ({why})
op\telements\tdtype\tdevice\ttime_us"""


def gemm_table(path, measurement, device, why):
    gpu = measurement["gpu"]["name"]
    lines = [GEMM_HEADER.format(path=path, gpu=gpu, created=measurement["created"],
                                device=device, why=why)]
    for p in measurement["gemm_sweep"]:
        flops = 2.0 * p["m"] * p["n"] * p["k"] * p["groups"]
        lines.append(row(p["groups"], p["m"], p["n"], p["k"], GEMM_DTYPES[p["precision"]], gpu,
                         1e6 * flops / p["flops_per_s"]))
    return lines


def elementwise_table(path, figures, device, why):
    gpu = figures["gpu"]
    lines = [ELEMENTWISE_HEADER.format(path=path, torch=figures["torch"], gpu=gpu,
                                       device=device, why=why)]
    for p in figures["elementwise_sweep"]:
        lines.append(row(p["op"], p["elements"], p["dtype"], gpu,
                         1e6 / p["calls_per_s"]["median"]))
    return lines


def row(*cells):
    return "\t".join(f"{c:.6g}" if isinstance(c, float) else str(c) for c in cells)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    source, device, out = sys.argv[1:]
    data = json.loads(pathlib.Path(source).read_text())
    why = "CUDA's name for the catalog part, with which ridge's own report compares the run"
    if "elementwise_sweep" in data:
        table = elementwise_table
    elif data.get("gemm_sweep"):
        table = gemm_table
    else:
        sys.exit(f"{source}: neither a GEMM shape sweep nor an element-wise sweep")
    lines = table(source, data, device, why)
    pathlib.Path(out).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
