#!/usr/bin/env python3
"""The last table of scripts/gpu-check.sh: ridge's measured HBM copy and bf16 GEMM beside
PyTorch's on the same GPU in the same run, and beside the published spec of the catalog device
whose name begins with the GPU's (the rule ridge's own report uses)."""
import json
import os
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
    return matches[0] if len(matches) == 1 else None


def tera(x):
    return "-" if x is None else f"{x / 1e12:.3g} T"


def share(a, b):
    return "-" if a is None or not b else f"{100 * a / b:.1f}%"


def main():
    out, ridge = sys.argv[1], sys.argv[2]
    m = load(os.path.join(out, "gpu.json"))
    torch = load(os.path.join(out, "torch.json"))
    copy = max((b["bytes_per_s"] for b in m["bandwidth"] if b["kernel"] == "copy"), default=None)
    bf16 = m["peak_flops"].get("bf16")
    spec = spec_device(ridge, m["gpu"]["name"])
    spec_bw = spec["bandwidth_bytes_per_s"] if spec else None
    spec_bf16 = spec["bf16_flops_per_s"] if spec else None
    torch_copy = torch["copy_bytes_per_s"]["median"] if torch else None
    torch_gemm = torch["bf16_8192_flops_per_s"]["median"] if torch else None

    print(f"## {m['gpu']['name']}: ridge against PyTorch {torch['torch'] if torch else '(absent)'}"
          f" and the spec of {spec['id'] if spec else '(no catalog match)'}\n")
    print("| figure | ridge | PyTorch | spec | ridge / spec | ridge / PyTorch |")
    print("|---|---|---|---|---|---|")
    print(f"| HBM copy, B/s (read + written) | {tera(copy)} | {tera(torch_copy)} | {tera(spec_bw)}"
          f" | {share(copy, spec_bw)} | {share(copy, torch_copy)} |")
    print(f"| bf16 8192^3 GEMM, FLOP/s | {tera(bf16)} | {tera(torch_gemm)} | {tera(spec_bf16)}"
          f" | {share(bf16, spec_bf16)} | {share(bf16, torch_gemm)} |")
    print()
    if copy and spec_bw:
        verdict = "met" if copy >= COPY_SHARE_OF_SPEC * spec_bw else "MISSED"
        print(f"- target: copy >= {COPY_SHARE_OF_SPEC:.0%} of the spec's bandwidth: {verdict}")
    if bf16 and torch_gemm:
        verdict = "met" if bf16 >= GEMM_SHARE_OF_TORCH * torch_gemm else "MISSED"
        print(f"- target: bf16 GEMM >= {GEMM_SHARE_OF_TORCH:.0%} of torch.matmul: {verdict}")


if __name__ == "__main__":
    main()
