#!/usr/bin/env python3
"""The last table of scripts/gpu-check.sh: ridge's measured HBM copy and bf16 GEMM beside
PyTorch's on the same GPU in the same run, and beside the published spec of the catalog device
whose name begins with the GPU's (the rule ridge's own report uses)."""
import json
import os
import statistics
import subprocess
import sys

COPY_SHARE_OF_SPEC = 0.90  # targets of the GPU-backend issue
GEMM_SHARE_OF_TORCH = 0.95


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def spec_device(ridge, gpu_name):
    listing = json.loads(subprocess.run([ridge, "devices", "--format", "json"], check=True,
                                        capture_output=True, text=True).stdout)
    matches = [d for d in listing["devices"] if d["name"].startswith(gpu_name)]
    # As ridge reads a part's name: one that says neither PCIe nor NVL is the module.
    modules = [d for d in matches if not any(w in d["name"] for w in ("PCIe", "NVL"))]
    for candidates in (matches, modules):
        if len(candidates) == 1:
            return candidates[0]
    return None


def tera(x):
    if x is None:
        return "-"
    return f"{x / 1e12:.0f} T" if x >= 1e15 else f"{x / 1e12:.3g} T"


def share(a, b):
    return "-" if a is None or not b else f"{100 * a / b:.1f}%"


def best(m, kernel):
    return max((b["bytes_per_s"] for b in m["bandwidth"] if b["kernel"] == kernel), default=None)


def sweep_sets(m, torch):
    """ridge's GEMM shape sweep beside PyTorch's runs of the same shapes: per set of weights, the
    ratio of ridge's rate to PyTorch's over its m (median, least, most), and ridge's best rate."""
    theirs = {(p["precision"], p["m"], p["n"], p["k"], p["groups"]): p["flops_per_s"]["median"]
              for p in torch.get("gemm_sweep", [])}
    sets = {}
    for p in m.get("gemm_sweep", []):
        key = (p["precision"], p["n"], p["k"], p["groups"])
        other = theirs.get((p["precision"], p["m"], p["n"], p["k"], p["groups"]))
        entry = sets.setdefault(key, {"ratios": [], "best": 0.0, "m": []})
        entry["m"].append(p["m"])
        entry["best"] = max(entry["best"], p["flops_per_s"])
        if other:
            entry["ratios"].append(p["flops_per_s"] / other)
    return sets


def print_sweep(m, torch):
    sets = sweep_sets(m, torch)
    if not sets:
        return
    print("\nGEMM shape sweep: ridge (cuBLASLt, the heuristic's first algorithm) over PyTorch "
          "(F.linear, _scaled_mm, bmm, 20 calls a CUDA graph) on the same shapes, sustained rates\n")
    print("| precision | weights n x k | groups | m | ridge's best | ridge / PyTorch median "
          "| least | most |")
    print("|---|---|---|---|---|---|---|---|")
    for (precision, n, k, groups), e in sets.items():
        r = sorted(e["ratios"])
        spread = (f"{statistics.median(r):.3f} | {r[0]:.3f} | {r[-1]:.3f}" if r
                  else "- | - | -")
        print(f"| {precision} | {n} x {k} | {groups} | {min(e['m'])}-{max(e['m'])} | "
              f"{tera(e['best'])} | {spread} |")


def main():
    out, ridge = sys.argv[1], sys.argv[2]
    m = load(os.path.join(out, "gpu.json"))
    torch = load(os.path.join(out, "torch.json")) or {}
    spec = spec_device(ridge, m["gpu"]["name"]) or {}
    spec_bw, spec_bf16 = spec.get("bandwidth_bytes_per_s"), spec.get("bf16_flops_per_s")
    torch_rate = lambda key: torch[key]["median"] if key in torch else None
    copy, memcpy = best(m, "copy"), best(m, "memcpy")
    bf16 = m["peak_flops"].get("bf16")

    print(f"## {m['gpu']['name']}: ridge beside PyTorch {torch.get('torch', '(absent)')} and "
          f"the spec of {spec.get('id', '(no catalog match)')}\n")
    print("Medians; 'sustained' is ridge's timing (15 samples of at least 10 ms after warm-ups),")
    print("'burst' single calls after three warm-ups.\n")
    print("| figure | ridge | PyTorch | spec | ridge / spec | ridge / PyTorch |")
    print("|---|---|---|---|---|---|")
    rows = [
        ("copy kernel (STREAM), B/s read + written", copy, torch_rate("copy_bytes_per_s"), spec_bw),
        ("cudaMemcpy device to device, B/s", memcpy, torch_rate("copy_bytes_per_s"), spec_bw),
        ("bf16 8192^3 GEMM, sustained, FLOP/s", bf16, torch_rate("bf16_8192_flops_per_s"),
         spec_bf16),
        ("bf16 8192^3 GEMM, burst (PyTorch only)", None,
         torch_rate("bf16_8192_flops_per_s_burst"), spec_bf16),
    ]
    for name, ours, theirs, published in rows:
        print(f"| {name} | {tera(ours)} | {tera(theirs)} | {tera(published)} | "
              f"{share(ours, published)} | {share(ours, theirs)} |")
    print()
    best_copy = max(filter(None, [copy, memcpy]), default=None)
    if best_copy and spec_bw:
        verdict = "met" if best_copy >= COPY_SHARE_OF_SPEC * spec_bw else "MISSED"
        print(f"- target: HBM copy >= {COPY_SHARE_OF_SPEC:.0%} of the spec's bandwidth: {verdict}"
              f" ({share(best_copy, spec_bw)})")
    torch_gemm = torch_rate("bf16_8192_flops_per_s")
    if bf16 and torch_gemm:
        verdict = "met" if bf16 >= GEMM_SHARE_OF_TORCH * torch_gemm else "MISSED"
        print(f"- target: bf16 GEMM >= {GEMM_SHARE_OF_TORCH:.0%} of torch.matmul, both sustained: "
              f"{verdict} ({share(bf16, torch_gemm)})")
    print_sweep(m, torch)
    empty = torch.get("empty_kernel")
    if empty:
        print(f"\nAn empty kernel (PyTorch, {empty['calls']} one-element adds): "
              f"{1e6 / empty['eager_kernels_per_s']['median']:.2f} us each launched from Python, "
              f"{1e6 / empty['graph_kernels_per_s']['median']:.2f} us each replayed from a CUDA "
              "graph (medians)")


if __name__ == "__main__":
    main()
