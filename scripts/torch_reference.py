#!/usr/bin/env python3
"""PyTorch's figures on the GPU scripts/gpu-check.sh measures, for side-by-side comparison:
a device-to-device copy (bytes read plus bytes written) and an 8192^3 bf16 matmul on random
data. Each is timed two ways with CUDA events: 'sustained', as ridge times (warm-ups, then 15
samples of at least 10 ms each), and 'burst' (single calls after three warm-ups), since a GPU
under sustained load lowers its clock. Given ridge's measurement (gpu.json), also every shape of
its GEMM sweep the way a framework runs it (F.linear, torch._scaled_mm, torch.bmm), 20 calls a
CUDA graph replayed, sustained; the time a kernel too small to do any work takes launched one by
one from Python and replayed from a CUDA graph; and an element-wise kernel's time from 1024
elements to 256 Mi. Medians and spreads, as JSON on stdout.

Usage: torch_reference.py [GPU_JSON] [--elementwise-only]"""
import argparse
import json
import os
import statistics

import torch

MIN_SAMPLE_MS = 10.0  # ridge's GPU timing: gpu_timing_for(quick=False)
SAMPLES = 15
WARMUPS = 3


def elapsed_ms(fn, calls):
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(calls):
        fn()
    stop.record()
    stop.synchronize()
    return start.elapsed_time(stop)


def sustained(fn, work):
    for _ in range(WARMUPS):
        fn()
    calls = 1
    while elapsed_ms(fn, calls) < MIN_SAMPLE_MS:
        calls *= 2
    return summary(work, [elapsed_ms(fn, calls) / calls for _ in range(SAMPLES)])


def burst(fn, work, samples=10):
    for _ in range(WARMUPS):
        fn()
    torch.cuda.synchronize()
    return summary(work, [elapsed_ms(fn, 1) for _ in range(samples)])


def summary(work, times_ms):
    rates = sorted(work / (t * 1e-3) for t in times_ms)
    return {"median": statistics.median(rates), "min": rates[0], "max": rates[-1],
            "samples_ms": times_ms}


def sweep_operands(point):
    """The callable that runs one point of ridge's sweep as PyTorch runs it: activations m x k
    times weights n x k (transposed), `groups` independent products for batched experts."""
    m, n, k, groups = point["m"], point["n"], point["k"], point["groups"]
    wide = torch.float16 if point["precision"] == "fp16" else torch.bfloat16
    if point["precision"] == "fp8":
        a = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
        w = torch.randn(n, k, device="cuda").to(torch.float8_e4m3fn)
        one = torch.ones((), device="cuda")
        return lambda: torch._scaled_mm(a, w.t(), scale_a=one, scale_b=one,
                                        out_dtype=torch.bfloat16)
    if groups > 1:
        a = torch.randn(groups, m, k, dtype=wide, device="cuda")
        w = torch.randn(groups, n, k, dtype=wide, device="cuda")
        return lambda: torch.bmm(a, w.transpose(1, 2))
    a = torch.randn(m, k, dtype=wide, device="cuda")
    w = torch.randn(n, k, dtype=wide, device="cuda")
    return lambda: torch.nn.functional.linear(a, w)


def replayed(fn, calls):
    """`calls` calls of fn captured in one CUDA graph, and its replay: the kernels back to back
    with no host in between, as ridge's C++ loop keeps them, where eager PyTorch's dispatch from
    Python (tens of microseconds a call on some hosts) would time the host instead."""
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        fn()
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(calls):
            fn()
    return graph


def gemm_sweep(ridge_json, calls_per_replay=20):
    with open(ridge_json) as f:
        points = json.load(f).get("gemm_sweep", [])
    rows = []
    for p in points:
        graph = replayed(sweep_operands(p), calls_per_replay)
        flops = 2.0 * p["m"] * p["n"] * p["k"] * p["groups"] * calls_per_replay
        rows.append({key: p[key] for key in ("precision", "m", "n", "k", "groups")} |
                    {"flops_per_s": sustained(graph.replay, flops),
                     "calls_per_graph_replay": calls_per_replay})
        del graph
        torch.cuda.empty_cache()
    return rows


def empty_kernel_times(calls=1000):
    """Seconds per kernel for `calls` one-element adds: launched one by one from Python (the
    host's dispatch and launch, as eager PyTorch pays them) and replayed from one CUDA graph."""
    x = torch.zeros(1, device="cuda")
    add = lambda: x.add_(1.0)
    eager = sustained(lambda: [add() for _ in range(calls)], calls)
    graph = replayed(add, calls)
    return {"calls": calls, "eager_kernels_per_s": eager,
            "graph_kernels_per_s": sustained(graph.replay, calls)}


def elementwise_sweep(calls_per_replay=20):
    """One element-wise kernel a call, y = 2x over bf16 (each element read once and written once,
    as ridge prices an element-wise op), from 1024 elements to 256 Mi by fours, 20 calls a CUDA
    graph on the same buffers: what the kernel costs beside the bytes it moves."""
    rows = []
    for elements in (4 ** e for e in range(5, 15)):
        x = torch.randn(elements, dtype=torch.bfloat16, device="cuda")
        y = torch.empty_like(x)
        graph = replayed(lambda: torch.mul(x, 2.0, out=y), calls_per_replay)
        rows.append({"op": "mul", "elements": elements, "dtype": "bf16",
                     "calls_per_graph_replay": calls_per_replay,
                     "calls_per_s": sustained(graph.replay, calls_per_replay)})
        del graph, x, y
        torch.cuda.empty_cache()
    return rows


def headline_figures():
    """The copy and the 8192^3 bf16 matmul, sustained and burst."""
    copy_bytes = 1 << 31  # 2 GiB each way: far beyond the L2
    src = torch.empty(copy_bytes, dtype=torch.uint8, device="cuda").random_(0, 255)
    dst = torch.empty_like(src)
    copy = lambda: dst.copy_(src)
    n = 8192
    a = torch.randn(n, n, dtype=torch.bfloat16, device="cuda")
    b = torch.randn(n, n, dtype=torch.bfloat16, device="cuda")
    gemm = lambda: torch.matmul(a, b)
    figures = {
        "copy_bytes_per_s": sustained(copy, 2 * copy_bytes),
        "copy_bytes_per_s_burst": burst(copy, 2 * copy_bytes),
        "bf16_8192_flops_per_s": sustained(gemm, 2.0 * n ** 3),
        "bf16_8192_flops_per_s_burst": burst(gemm, 2.0 * n ** 3),
    }
    del src, dst, a, b
    torch.cuda.empty_cache()
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("gpu_json", nargs="?", help="ridge's measurement, for its GEMM sweep")
    parser.add_argument("--elementwise-only", action="store_true",
                        help="only the element-wise sweep (and the empty kernel)")
    args = parser.parse_args()
    torch.manual_seed(0)
    figures = {"torch": torch.__version__, "cuda": torch.version.cuda,
               "gpu": torch.cuda.get_device_name()}
    if not args.elementwise_only:
        figures |= headline_figures()
    figures["empty_kernel"] = empty_kernel_times()
    figures["elementwise_sweep"] = elementwise_sweep()
    if args.gpu_json and os.path.exists(args.gpu_json) and not args.elementwise_only:
        figures["gemm_sweep"] = gemm_sweep(args.gpu_json)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
