#!/usr/bin/env python3
"""PyTorch's figures on the GPU scripts/gpu-check.sh measures, for side-by-side comparison:
a device-to-device copy (bytes read plus bytes written) and an 8192^3 bf16 matmul on random
data. Each is timed two ways with CUDA events: 'sustained', as ridge times (warm-ups, then 15
samples of at least 10 ms each), and 'burst' (single calls after three warm-ups), since a GPU
under sustained load lowers its clock. Medians and spreads, as JSON on stdout."""
import json
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


def main():
    torch.manual_seed(0)
    copy_bytes = 1 << 31  # 2 GiB each way: far beyond the L2
    src = torch.empty(copy_bytes, dtype=torch.uint8, device="cuda").random_(0, 255)
    dst = torch.empty_like(src)
    copy = lambda: dst.copy_(src)

    n = 8192
    a = torch.randn(n, n, dtype=torch.bfloat16, device="cuda")
    b = torch.randn(n, n, dtype=torch.bfloat16, device="cuda")
    gemm = lambda: torch.matmul(a, b)

    print(json.dumps({
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "gpu": torch.cuda.get_device_name(),
        "copy_bytes_per_s": sustained(copy, 2 * copy_bytes),
        "copy_bytes_per_s_burst": burst(copy, 2 * copy_bytes),
        "bf16_8192_flops_per_s": sustained(gemm, 2.0 * n ** 3),
        "bf16_8192_flops_per_s_burst": burst(gemm, 2.0 * n ** 3),
    }, indent=2))


if __name__ == "__main__":
    main()
