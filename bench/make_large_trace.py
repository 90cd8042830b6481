"""Writes a Kineto-format PyTorch profiler trace of about SIZE megabytes (default 1024) to PATH,
streamed, for `make bench-profile`: GPU kernels of a few dozen names, each launched by a CPU op
with its shapes, as a long training run records them. Never committed; made on the spot.

Usage: python3 bench/make_large_trace.py PATH [SIZE_MB]
"""
import json
import random
import sys

path = sys.argv[1]
target = int(sys.argv[2] if len(sys.argv) > 2 else 1024) << 20
random.seed(0)
names = [f"void at::native::vectorized_elementwise_kernel<4, op_{i}>(int, float*)" for i in range(20)]
names += [f"ampere_bf16_s16816gemm_bf16_{t}x128_ldg8_f2f_stages_64x3_tn" for t in (64, 128, 256)]
names += ["ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)"]
with open(path, "w") as f:
    f.write('{"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3"}],'
            ' "traceEvents": [\n')
    written, i, ts = 0, 0, 1.0e15
    while written < target:
        m, n, k = random.choice((1024, 2048, 4096)), 4096, random.choice((4096, 11008))
        op = json.dumps({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1,
                         "ts": ts, "dur": 12.5, "args": {"External id": i, "Input Dims": [[m, k], [k, n]],
                         "Input type": ["c10::BFloat16", "c10::BFloat16"], "flops": 2 * m * n * k}})
        kernel = json.dumps({"ph": "X", "cat": "kernel", "name": names[i % len(names)], "pid": 0,
                             "tid": 7, "ts": ts + 20, "dur": 31.25, "args": {"External id": i,
                             "correlation": i + 1, "device": 0, "stream": 7, "grid": [132, 1, 1],
                             "block": [256, 1, 1], "registers per thread": 168}})
        line = op + ",\n" + kernel + ",\n"
        f.write(line)
        written += len(line)
        i += 1
        ts += 50
    f.write('{"ph": "i", "name": "end", "pid": 0, "tid": 0, "ts": 0}\n]}\n')
print(f"{path}: {i} kernels, {written >> 20} MB")
