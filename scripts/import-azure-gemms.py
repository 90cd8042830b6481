#!/usr/bin/env python3
"""Writes data/validation/gemm_azure_{cublaslt,mi300x_fp8}.tsv from Azure's AI benchmarking guide.

The guide (github.com/Azure/AI-benchmarking-guide) publishes, for each Azure GPU VM it ran, a
results page whose GEMM table gives the TFLOP/s of one vendor-library product at nine shapes.
On NVIDIA's parts superbenchmark's cublaslt_gemm times it (Benchmarks/GEMMCublasLt.py runs
`cublaslt_gemm -m M -n N -k K -b 1 -i 1000 -w 10000 -t TYPE`), and this script derives each
row's time as cublaslt_gemm computes the rate (m * n * (2k - 1) / time:
superbench/benchmarks/micro_benchmarks/cublaslt_gemm/cublaslt_gemm.cu). On the MI300X
hipblaslt-bench times it (Benchmarks/AMD/GEMMHipblasLt.py runs hipBLAS_runner.sh), whose rate is
2mnk over the time, as ridge reads a `tflops` column. Each page's table is copied unchanged.

    scripts/import-azure-gemms.py COMMIT=RESULTS.md [COMMIT=RESULTS.md ...]

Each argument is one results page (ND_A100_v4_results.md, ND_H100_v5_results.md, ...) and the
commit it was read at; the shipped files were made from the five in PAGES below.
"""

import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
VALIDATION = ROOT / "data" / "validation"

# Each page the shipped files were made from: its commit, the VM's GPU as the page names it, the
# catalog part it is, why, the input type the run used, and the benchmark that timed it.
PAGES = {
    "ND_A100_v4_results.md": (
        "3bb66cacc25632d8ece36bc1d5128c5ea886a60b", "NVIDIA A100-SXM4-80GB", "a100-sxm-80gb",
        "the page's GPU is CUDA's name for the SXM4 80 GB part", "fp16", "cublaslt"),
    "ND_H100_v5_results.md": (
        "ae0b6a7f47caee92985aafc546faf30e9d4a3ca7", "NVIDIA H100 80GB HBM3", "h100-sxm",
        "CUDA's name for the SXM5 part, eight to an ND H100 v5 VM on NVSwitch", "fp8e4m3",
        "cublaslt"),
    "ND_H200_v5_results.md": (
        "7f20e5fa3b2f9a46d8404af1f6fb14b049d6d5cc", "NVIDIA H200 141GB", "h200-sxm",
        "an ND H200 v5 VM holds eight H200 SXM parts on NVSwitch, not the NVL card", "fp8e4m3",
        "cublaslt"),
    "ND_GB200_v6_results.md": (
        "2a370be6de9586d365feed77e014a73f25198f4d", "NVIDIA GB200 185GB", "gb200",
        "one Blackwell GPU of a GB200 superchip (the page's CPU is its Grace, ARM Neoverse-V2)",
        "fp8e4m3", "cublaslt"),
    # The guide's MI300X page, in a fork that carries it (github.com/samuel-bohman/AI-benchmarking-
    # guide); the upstream snapshots read here have none.
    "ND_MI300X_v5_results.md": (
        "3de0c294fd1059a91a2c158712c4a078619d73e8", "AMD Instinct MI300X", "mi300x",
        "the catalog's one MI300X, eight to an ND MI300X v5 VM", "f8_r", "hipblaslt"),
}

# The benchmarks' types: cublaslt_gemm's fp8e4m3 multiplies e4m3 inputs into an fp16 output
# (run<fp8e4m3, fp8e4m3, fp16>), its fp16 and bf16 keep their type throughout; hipblaslt-bench's
# f8_r (gfx942's e4m3 FNUZ) runs into an f16_r output (hipBLASLt_runner.sh's c_type and d_type).
DTYPES = {"fp16": "fp16", "bf16": "bf16", "fp8e4m3": "fp8_e4m3->fp16", "f8_r": "fp8_e4m3->fp16"}

CUBLASLT_HEADER = """\
# Source: github.com/Azure/AI-benchmarking-guide, Azure_Results/<page> at the commit each row names (Microsoft Azure's AI benchmarking guide: its results for the ND A100 v4, ND H100 v5, ND H200 v5 and ND GB200 v6 VMs), the tables 'GEMM CuBLASLt' ('GEMM CuBLASLt (FP8)' on the GB200's page). Added by ridge with scripts/import-azure-gemms.py; held out (no figure of ridge's was fitted to them).
# Conditions: one cuBLASLt product (TN layout, the heuristic's first algorithm, 1 in batch) timed by superbenchmark's cublaslt_gemm as Benchmarks/GEMMCublasLt.py runs it: 10,000 warm-up calls, then 1,000 timed back to back from the host between two CUDA events, each on the same A, B and output buffers; the page's TFLOP/s is m * n * (2k - 1) over the mean time (superbench/benchmarks/micro_benchmarks/cublaslt_gemm/cublaslt_gemm.cu). Inputs 'random' (the page's words; the code fills each buffer from one random value plus 3 per element). fp8e4m3 is e4m3 inputs into an fp16 output; the A100 runs fp16 (the guide's script: 'A100 does not support fp8').
# Columns: tflops_source verbatim; time_us_derived = m * n * (2k - 1) / tflops_source, the time cublaslt_gemm measured. The GB200's FP4 table is left out: the page does not say which block-scaled format (NVFP4 or MXFP4) its FP4 products ran, and the benchmark's FP4 code is not in the guide.
# ridge: replayed_copies = 1 (each call reads the same A and B and writes the same output: what of them the L2 holds it holds from the call before)
# ridge: warmup_calls = 10000 (cublaslt_gemm -w 10000, Benchmarks/GEMMCublasLt.py)
# ridge: timed_calls = 1000 (cublaslt_gemm -i 1000, Benchmarks/GEMMCublasLt.py)
"""

HIPBLASLT_HEADER = """\
# Source: Azure_Results/ND_MI300X_v5_results.md of Microsoft's AI benchmarking guide, in its fork github.com/samuel-bohman/AI-benchmarking-guide at the commit the row names (the upstream snapshots ridge read have no MI300X page), the table 'GEMM HipBLASLt' of the ND MI300X v5 VM (AMD Instinct MI300X, HIP 6.2, RCCL 2.22.3). Added by ridge with scripts/import-azure-gemms.py; held out (no figure of ridge's was fitted to them: the cdna3 profile's compute shares are AMD's own measurement).
# Conditions: one hipBLASLt product (TN, f8_r inputs, gfx942's e4m3, into an f16_r output, f32 compute) timed by hipblaslt-bench as Benchmarks/AMD/hipBLAS_runner.sh runs it (GEMMHipblasLt.py @ 24febec; hipBLASLt_runner.sh passes the same arguments): --flush, 100 cold calls then 2,000 timed, inputs initialised trig_float, a 512 MB rotating buffer, so every call reads its operands from memory; the page's TFLOP/s is hipblaslt-bench's, 2mnk over the mean time.
# Columns: tflops verbatim (ridge derives the time as 2mnk over it, the benchmark's own count).
"""


def gemm_rows(text: str):
    """The (m, n, k, TFLOP/s) rows of the page's first GEMM table."""
    section = re.search(r"^### GEMM (?:CuBLASLt|HipBLASLt)[^\n]*\n(.*?)(?=^#)", text, re.S | re.M)
    if not section:
        sys.exit("no '### GEMM CuBLASLt' or '### GEMM HipBLASLt' table")
    rows = []
    for line in section.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and all(re.fullmatch(r"\d+(\.\d+)?", c) for c in cells):
            rows.append((int(cells[0]), int(cells[1]), int(cells[2]), cells[3]))
    return rows


def rate_cells(bench: str, m: int, n: int, k: int, tflops: str) -> str:
    """The page's rate, and for cublaslt_gemm the time it measured: its rate counts
    m * n * (2k - 1), where hipblaslt-bench counts 2mnk, as ridge reads a `tflops` column."""
    if bench == "hipblaslt":
        return tflops
    return f"{tflops}\t{m * n * (2 * k - 1) / (float(tflops) * 1e6):.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="+", metavar="COMMIT=RESULTS.md")
    args = parser.parse_args()
    outputs = {
        "cublaslt": (VALIDATION / "gemm_azure_cublaslt.tsv", CUBLASLT_HEADER,
                     "m\tn\tk\tdtype\tdevice\ttflops_source\ttime_us_derived\tpage\n"),
        "hipblaslt": (VALIDATION / "gemm_azure_mi300x_fp8.tsv", HIPBLASLT_HEADER,
                      "m\tn\tk\tdtype\tdevice\ttflops\tpage\n"),
    }
    devices = {bench: [] for bench in outputs}
    body = {bench: [] for bench in outputs}
    for argument in args.pages:
        commit, _, path = argument.partition("=")
        name = pathlib.Path(path).name
        if name not in PAGES or PAGES[name][0] != commit:
            sys.exit(f"{argument}: not one of the pages (and commits) the shipped files are made of")
        _, gpu, part, why, dtype, bench = PAGES[name]
        devices[bench].append(f"# ridge: device {gpu} = {part} ({why})\n")
        for m, n, k, tflops in gemm_rows(pathlib.Path(path).read_text()):
            body[bench].append(f"{m}\t{n}\t{k}\t{DTYPES[dtype]}\t{gpu}\t"
                               f"{rate_cells(bench, m, n, k, tflops)}\t{name} @ {commit[:7]}\n")
    for bench, (out, header, columns) in outputs.items():
        if not body[bench]:
            continue
        out.write_text(header + "".join(devices[bench]) + columns + "".join(body[bench]))
        print(f"wrote {out} ({len(body[bench])} rows)")


if __name__ == "__main__":
    main()
