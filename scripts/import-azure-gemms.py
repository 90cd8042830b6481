#!/usr/bin/env python3
"""Writes data/validation/gemm_azure_cublaslt.tsv from Microsoft Azure's AI benchmarking guide.

The guide (github.com/Azure/AI-benchmarking-guide) publishes, for each Azure GPU VM it ran, a
results page whose "GEMM CuBLASLt" table gives the TFLOP/s of one cuBLASLt product at nine
shapes, timed by superbenchmark's cublaslt_gemm (Benchmarks/GEMMCublasLt.py builds it and runs
`cublaslt_gemm -m M -n N -k K -b 1 -i 1000 -w 10000 -t TYPE`). This script copies each page's
table unchanged and derives each row's time from it as cublaslt_gemm itself computes the rate
(m * n * (2k - 1) / time: superbench/benchmarks/micro_benchmarks/cublaslt_gemm/cublaslt_gemm.cu).

    scripts/import-azure-gemms.py COMMIT=RESULTS.md [COMMIT=RESULTS.md ...]

Each argument is one results page (ND_A100_v4_results.md, ND_H100_v5_results.md, ...) and the
guide's commit it was read at; the shipped file was made from the four in PAGES below.
"""

import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "data" / "validation" / "gemm_azure_cublaslt.tsv"

# Each page the shipped file was made from: its commit, the VM's GPU as the page names it, the
# catalog part it is, why, and the input type the run used.
PAGES = {
    "ND_A100_v4_results.md": (
        "3bb66cacc25632d8ece36bc1d5128c5ea886a60b", "NVIDIA A100-SXM4-80GB", "a100-sxm-80gb",
        "the page's GPU is CUDA's name for the SXM4 80 GB part", "fp16"),
    "ND_H100_v5_results.md": (
        "ae0b6a7f47caee92985aafc546faf30e9d4a3ca7", "NVIDIA H100 80GB HBM3", "h100-sxm",
        "CUDA's name for the SXM5 part, eight to an ND H100 v5 VM on NVSwitch", "fp8e4m3"),
    "ND_H200_v5_results.md": (
        "7f20e5fa3b2f9a46d8404af1f6fb14b049d6d5cc", "NVIDIA H200 141GB", "h200-sxm",
        "an ND H200 v5 VM holds eight H200 SXM parts on NVSwitch, not the NVL card", "fp8e4m3"),
    "ND_GB200_v6_results.md": (
        "2a370be6de9586d365feed77e014a73f25198f4d", "NVIDIA GB200 185GB", "gb200",
        "one Blackwell GPU of a GB200 superchip (the page's CPU is its Grace, ARM Neoverse-V2)",
        "fp8e4m3"),
}

# cublaslt_gemm's types: fp8e4m3 multiplies e4m3 inputs into an fp16 output (run<fp8e4m3,
# fp8e4m3, fp16>); fp16, bf16 keep their type throughout.
DTYPES = {"fp16": "fp16", "bf16": "bf16", "fp8e4m3": "fp8_e4m3->fp16"}

HEADER = """\
# Source: github.com/Azure/AI-benchmarking-guide, Azure_Results/<page> at the commit each row names (Microsoft Azure's AI benchmarking guide: its results for the ND A100 v4, ND H100 v5, ND H200 v5 and ND GB200 v6 VMs), the tables 'GEMM CuBLASLt' ('GEMM CuBLASLt (FP8)' on the GB200's page). Added by ridge with scripts/import-azure-gemms.py; held out (no figure of ridge's was fitted to them).
# Conditions: one cuBLASLt product (TN layout, the heuristic's first algorithm, 1 in batch) timed by superbenchmark's cublaslt_gemm as Benchmarks/GEMMCublasLt.py runs it: 10,000 warm-up calls, then 1,000 timed back to back from the host between two CUDA events, each on the same A, B and output buffers; the page's TFLOP/s is m * n * (2k - 1) over the mean time (superbench/benchmarks/micro_benchmarks/cublaslt_gemm/cublaslt_gemm.cu). Inputs 'random' (the page's words; the code fills each buffer from one random value plus 3 per element). fp8e4m3 is e4m3 inputs into an fp16 output; the A100 runs fp16 (the guide's script: 'A100 does not support fp8').
# Columns: tflops_source verbatim; time_us_derived = m * n * (2k - 1) / tflops_source, the time cublaslt_gemm measured. The GB200's FP4 table is left out: the page does not say which block-scaled format (NVFP4 or MXFP4) its FP4 products ran, and the benchmark's FP4 code is not in the guide.
# ridge: replayed_copies = 1 (each call reads the same A and B and writes the same output: what of them the L2 holds it holds from the call before)
# ridge: warmup_calls = 10000 (cublaslt_gemm -w 10000, Benchmarks/GEMMCublasLt.py)
# ridge: timed_calls = 1000 (cublaslt_gemm -i 1000, Benchmarks/GEMMCublasLt.py)
"""


def gemm_rows(text: str):
    """The (m, n, k, TFLOP/s) rows of the page's first 'GEMM CuBLASLt' table."""
    section = re.search(r"^### GEMM CuBLASLt[^\n]*\n(.*?)(?=^#)", text, re.S | re.M)
    if not section:
        sys.exit("no '### GEMM CuBLASLt' table")
    rows = []
    for line in section.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and all(re.fullmatch(r"\d+(\.\d+)?", c) for c in cells):
            rows.append((int(cells[0]), int(cells[1]), int(cells[2]), cells[3]))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="+", metavar="COMMIT=RESULTS.md")
    args = parser.parse_args()
    devices, body = [], []
    for argument in args.pages:
        commit, _, path = argument.partition("=")
        name = pathlib.Path(path).name
        if name not in PAGES or PAGES[name][0] != commit:
            sys.exit(f"{argument}: not one of the pages (and commits) the shipped file is made of")
        _, gpu, part, why, dtype = PAGES[name]
        devices.append(f"# ridge: device {gpu} = {part} ({why})\n")
        for m, n, k, tflops in gemm_rows(pathlib.Path(path).read_text()):
            time_us = m * n * (2 * k - 1) / (float(tflops) * 1e6)
            body.append(f"{m}\t{n}\t{k}\t{DTYPES[dtype]}\t{gpu}\t{tflops}\t{time_us:.3f}"
                        f"\t{name} @ {commit[:7]}\n")
    columns = "m\tn\tk\tdtype\tdevice\ttflops_source\ttime_us_derived\tpage\n"
    OUT.write_text(HEADER + "".join(devices) + columns + "".join(body))
    print(f"wrote {OUT} ({len(body)} rows)")


if __name__ == "__main__":
    main()
