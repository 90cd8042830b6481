#!/usr/bin/env python3
"""Writes a validation table from the GEMM shape sweep of a measurement `ridge measure --backend
cuda` made and docs/measurements keeps: every point's median time, as `ridge validate` reads a
GEMM table.

    scripts/import-ridge-sweep.py MEASUREMENT.json CATALOG_ID OUT.tsv

MEASUREMENT.json is the file under docs/measurements (its path is written into the header as the
source, so give it relative to the repository's root); CATALOG_ID is the catalog part the
measured GPU is (the header says so, in a `# ridge: device` line). The shipped
data/validation/gemm_ridge_h200_sweep.tsv was made by

    scripts/import-ridge-sweep.py docs/measurements/h200-2026-12-04/h200.json h200-sxm \\
        data/validation/gemm_ridge_h200_sweep.tsv
"""

import json
import pathlib
import sys

# The sweep's precisions as a validation table names them: fp8 is e4m3 inputs into a bf16
# output (src/measure/cuda/tensor_gemm.cc, gemm_types).
DTYPES = {"fp16": "fp16", "bf16": "bf16", "fp8": "fp8_e4m3->bf16"}

HEADER = """\
# Source: {path} (ridge measure --backend cuda on {gpu}, {created}; scripts/gpu-check.sh, whose run the folder keeps whole). Added by ridge with scripts/import-ridge-sweep.py; held out (no figure of ridge's was fitted to it).
# Conditions: cuBLASLt as a framework's linear layer issues y = x W^T (x m by k, W n by k, row-major: to cuBLAS y^T = W x^T, TN), the heuristic's first algorithm, groups > 1 one strided batched call; operands of uniform random values, each point's result checked against the host on sampled elements. Timed by CUDA events over calls back to back from the host on the same operands and output: warm-ups, then 15 samples of at least 10 ms each (src/measure/cuda/gpu_timing.cc).
# Columns: time_us = 2 m n k groups over the median of the samples' rates (the median sample: 15 of them), as the measurement's flops_per_s gives it.
# ridge: replayed_copies = 1 (each call reads the same operands and writes the same output: what of them the L2 holds it holds from the call before)
# ridge: device {gpu} = {device} ({why})
"""


def rows(measurement):
    for p in measurement["gemm_sweep"]:
        flops = 2.0 * p["m"] * p["n"] * p["k"] * p["groups"]
        yield (p["groups"], p["m"], p["n"], p["k"], DTYPES[p["precision"]],
               measurement["gpu"]["name"], 1e6 * flops / p["flops_per_s"])


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    source, device, out = sys.argv[1:]
    measurement = json.loads(pathlib.Path(source).read_text())
    gpu = measurement["gpu"]["name"]
    why = "the catalog part ridge's own report compared this measurement with"
    lines = [HEADER.format(path=source, gpu=gpu, created=measurement["created"], device=device,
                           why=why).rstrip("\n")]
    lines.append("groups\tm\tn\tk\tdtype\tdevice\ttime_us")
    lines += ["\t".join(f"{v:.6g}" if isinstance(v, float) else str(v) for v in row)
              for row in rows(measurement)]
    pathlib.Path(out).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
