#!/usr/bin/env python3
"""PyTorch's figures on the GPU scripts/gpu-check.sh measures, for side-by-side comparison:
a device-to-device copy (bytes read plus bytes written) and an 8192^3 bf16 matmul on random
data, each timed with CUDA events after warm-ups; medians and spreads, as JSON on stdout."""
import json
import statistics

import torch


def time_ms(fn, warmups=3, samples=20):
    for _ in range(warmups):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(samples):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return times


def summary(work, times_ms):
    rates = sorted(work / (t * 1e-3) for t in times_ms)
    return {"median": statistics.median(rates), "min": rates[0], "max": rates[-1],
            "samples_ms": times_ms}


def main():
    torch.manual_seed(0)
    copy_bytes = 1 << 31  # 2 GiB each way: far beyond the L2
    src = torch.empty(copy_bytes, dtype=torch.uint8, device="cuda").random_(0, 255)
    dst = torch.empty_like(src)
    copy = summary(2 * copy_bytes, time_ms(lambda: dst.copy_(src)))

    n = 8192
    a = torch.randn(n, n, dtype=torch.bfloat16, device="cuda")
    b = torch.randn(n, n, dtype=torch.bfloat16, device="cuda")
    gemm = summary(2.0 * n ** 3, time_ms(lambda: torch.matmul(a, b)))

    print(json.dumps({
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "gpu": torch.cuda.get_device_name(),
        "copy_bytes_per_s": copy,
        "bf16_8192_flops_per_s": gemm,
    }, indent=2))


if __name__ == "__main__":
    main()
