#!/usr/bin/env python3
"""Writes data/validation/gemm_vidur_{h100,a100}_fp16.tsv from Vidur's operator profiles.

Vidur (github.com/microsoft/vidur, MLSys 2024) profiles each operator of a transformer layer on
real GPUs and ships the timings: data/profiling/compute/<gpu>/<model>/mlp.csv. Its four linear
layers are fp16 GEMMs through torch (cuBLAS), timed as the kernels' GPU time. This script turns
them into ridge's GEMM validation format: one row per layer, token count and tensor-parallel
degree, the GEMM's shape derived from the model's dimensions as Vidur's own profiling model
(vidur/profiling/mlp/mlp_impl.py) builds it, the measured median copied unchanged.

    scripts/import-vidur-gemms.py VIDUR_GIT_DIR [COMMIT]

VIDUR_GIT_DIR is a clone of github.com/microsoft/vidur (a bare one will do); COMMIT defaults to
the one the shipped files were made from.
"""

import argparse
import csv
import io
import pathlib
import sys

from git_source import git

ROOT = pathlib.Path(__file__).resolve().parent.parent
COMMIT = "7d47513363ec447a741ac5e47241580b47724fbf"

# The token counts kept, the same for every model: all of Vidur's up to 64, then a spread of
# powers of two, their midpoints and counts just past a tile's edge (136, 264, 520, ...), up to
# the largest each model was profiled at. A fixed rule, chosen before any row was priced.
TOKENS = sorted({1, 2, 4, 8, 16, 24, 32, 40, 48, 56, 64, 72, 96, 128, 136, 192, 200, 256, 264,
                 384, 512, 520, 768, 1000, 1024, 1536, 2016, 2048, 3072, 3936, 4096, 8192,
                 16384, 32768})

GPUS = {
    "h100": ("H100 DGX", "h100-sxm",
             "Vidur's README lists its H100 data for the 'H100 DGX' (eight SXM5 parts on "
             "NVSwitch): the SXM part"),
    "a100": ("A100 80GB", "a100-sxm-80gb",
             "Vidur's README lists its A100 data for the 'A100 80GB DGX' (SXM4); its "
             "docs/profiling.md says the one compute profile serves both that and a '4xA100 "
             "80GB Pairwise NVLink Node' (PCIe cards bridged in pairs), without saying which "
             "it was taken on: were it the PCIe card (1.935 TB/s, 300 W), it is slower than "
             "this pin"),
}

# Vidur's names for the four linear layers, and each one's (n, k) from the model's dimensions
# (vidur/profiling/mlp/mlp_impl.py: ColumnParallelLinear and RowParallelLinear split n and k
# over the tensor-parallel workers).
LAYERS = {
    "attn_pre_proj": lambda d: ((d["heads"] + 2 * d["kv_heads"]) * d["head_dim"] // d["tp"],
                                d["embd"]),
    "attn_post_proj": lambda d: (d["embd"], d["heads"] * d["head_dim"] // d["tp"]),
    "mlp_up_proj": lambda d: ((2 if d["gated"] else 1) * d["ffn"] // d["tp"], d["embd"]),
    "mlp_down_proj": lambda d: (d["embd"], d["ffn"] // d["tp"]),
}


def profiles(repo: str, commit: str, gpu: str) -> list:
    prefix = f"data/profiling/compute/{gpu}/"
    paths = git(repo, "ls-tree", "-r", "--name-only", commit, prefix).split()
    return sorted(p for p in paths if p.endswith("/mlp.csv"))


def rows_of(repo: str, commit: str, path: str, device: str) -> list:
    model = path.split("/")[-2]
    seen = set()
    out = []
    for r in csv.DictReader(io.StringIO(git(repo, "show", f"{commit}:{path}"))):
        tokens, tp = int(r["num_tokens"]), int(r["num_tensor_parallel_workers"])
        # Vidur profiled some counts twice (4096, 2048); the first row is kept.
        if tokens not in TOKENS or (tokens, tp) in seen:
            continue
        seen.add((tokens, tp))
        dims = {"heads": int(r["n_head"]), "kv_heads": int(r["n_kv_head"]),
                "embd": int(r["n_embd"]), "ffn": int(r["n_expanded_embd"]),
                "gated": r["use_gated_mlp"] == "True", "tp": tp}
        dims["head_dim"] = dims["embd"] // dims["heads"]
        for layer, shape in LAYERS.items():
            n, k = shape(dims)
            out.append([layer, model, str(tp), str(tokens), str(n), str(k), "fp16", device,
                        r[f"time_stats.{layer}.median"]])
    return out


def header(commit: str, gpu: str, paths: list) -> str:
    name, device_id, why = GPUS[gpu]
    files = ", ".join(p.removeprefix(f"data/profiling/compute/{gpu}/") for p in paths)
    return "\n".join([
        f"# Source: github.com/microsoft/vidur @ {commit}, data/profiling/compute/{gpu}/*/mlp.csv "
        f"({files}); Vidur's operator profiles (Agrawal et al., 'Vidur: A Large-Scale Simulation "
        "Framework for LLM Inference', MLSys 2024). Made by scripts/import-vidur-gemms.py.",
        "# Conditions: the four linear layers of each model's decoder layer, fp16 weights and "
        "activations, through torch (F.linear, cuBLAS) in Sarathi-Serve's ColumnParallelLinear "
        "and RowParallelLinear, on one GPU at each tensor-parallel degree's shard "
        "(vidur/profiling/mlp/mlp_impl.py). Timed by Vidur's profiler with torch.profiler "
        "record_function: the kernels' GPU time, no launch; time_ms is the column "
        "time_stats.<layer>.median verbatim (the median over the profiled layers of one forward).",
        "# Shape: m = num_tokens; (n, k) from the model's dimensions as mlp_impl.py builds the "
        "layer: attn_pre_proj (n_head + 2 n_kv_head) x head_dim / tp by n_embd; attn_post_proj "
        "n_embd by n_head x head_dim / tp; mlp_up_proj (2 if gated) x n_expanded_embd / tp by "
        "n_embd; mlp_down_proj n_embd by n_expanded_embd / tp. Derived, not printed there.",
        f"# Rows: the token counts {', '.join(map(str, TOKENS))} where profiled, each (tokens, "
        "tp) once (a few were profiled twice; the first row is kept), chosen by that fixed rule "
        "before any row was priced. The a40 profiles are left out: ridge's catalog has no A40.",
        f"# ridge: device = {device_id} ({why})",
        "op\tmodel\ttp\tm\tn\tk\tdtype\tdevice\ttime_ms",
    ]) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("vidur", help="a clone of github.com/microsoft/vidur")
    parser.add_argument("commit", nargs="?", default=COMMIT)
    args = parser.parse_args()
    for gpu, (name, _, _) in GPUS.items():
        paths = profiles(args.vidur, args.commit, gpu)
        if not paths:
            sys.exit(f"no {gpu} profiles at {args.commit}")
        rows = [row for p in paths for row in rows_of(args.vidur, args.commit, p, name)]
        out = ROOT / f"data/validation/gemm_vidur_{gpu}_fp16.tsv"
        out.write_text(header(args.commit, gpu, paths) + "".join("\t".join(r) + "\n"
                                                                 for r in rows))
        print(f"{out.relative_to(ROOT)}: {len(rows)} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
