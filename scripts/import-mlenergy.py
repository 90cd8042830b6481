#!/usr/bin/env python3
"""Writes data/validation/llm_inference_mlenergy.tsv from the ML.ENERGY leaderboard's GPQA runs.

The ML.ENERGY Benchmark (github.com/ml-energy/benchmark) serves each model with vLLM 0.11.1 on
H100 and B200 GPUs, sends it every request of a task at once and lets vLLM keep `max_num_seqs`
of them running; the leaderboard (github.com/ml-energy/leaderboard, public/data/models/) publishes,
per run, the mean number of requests running and the output tokens per second, both over the
run's steady state (ml-energy/data, mlenergy_data/records/runs.py: Prometheus'
vllm:num_requests_running, and the steady state's tokens over its duration), with the histogram
of its requests' output lengths. Each running request gains one token a step, so the steady
state's mean time per output token is the requests running over the tokens per second (Little's
law); this script writes that time beside the source's figures, which it copies unchanged.

    scripts/import-mlenergy.py LEADERBOARD_GIT_DIR BENCHMARK_GIT_DIR > llm_inference_mlenergy.tsv

Each directory is a clone (or a bare mirror) of the repository, read at the commit pinned below.
"""

import argparse
import json
import sys

from git_source import git

LEADERBOARD_COMMIT = "0cd52dab897c5d91a45f4d413038f3b8b4251b0f"
BENCHMARK_COMMIT = "c1d6557fbf7c7c495749b0fcf649f71774eabde9"
TASK = "gpqa"

# The GPQA prompt's length is not published. EvalScope's statistics of GPQA Diamond give a mean
# prompt of 841 characters with its own 240-character instruction (evalscope.readthedocs.io,
# benchmarks/gpqa_diamond); the benchmark's own wording around the question and its choices is
# about 80 characters: some 680 characters, about 200 tokens with the chat template. An estimate;
# beside the 2,200 to 17,500 tokens of length-weighted output an error of 100 tokens in it moves
# the mean context by under 10%, and the step time by less.
PROMPT_TOKENS = 200

# The leaderboard's GPU names and the catalog's parts, told apart by the power the runs drew
# (avg_power_watts over num_gpus): only the SXM parts' limits allow it.
DEVICES = {
    "H100": ("h100-sxm", "the H100 rows draw up to 690 W a GPU (Qwen3-8B, gpt-oss-120b): the "
             "SXM5 part's 700 W limit, above the PCIe card's 350 W and the NVL card's 400 W"),
    "B200": ("b200", "the B200 rows draw up to 952 W a GPU (gpt-oss-120b): the 1,000 W SXM "
             "part of an HGX B200 board"),
}
# One set per part, named before any row was priced.
SOURCES = {"H100": "M1", "B200": "M2"}

PRECISIONS = {
    "bfloat16": "bf16",
    # Qwen3-235B-A22B-Thinking-2507-FP8, DeepSeek-V3.1 and R1: e4m3 weights in 128x128 blocks,
    # activations quantised per token group at run time (vLLM's W8A8 block FP8).
    "fp8": "fp8 (block-scaled e4m3 checkpoint, W8A8)",
    "mxfp4": "mxfp4",
}


def git_show(repo: str, commit: str, path: str) -> str:
    return git(repo, "show", f"{commit}:{path}")


def git_files(repo: str, commit: str, folder: str) -> list:
    return git(repo, "ls-tree", "--name-only", f"{commit}:{folder}").split()


def length_weighted_output(histogram: dict) -> float:
    """E[L^2] / E[L] over the histogram's bin centres: a running request's output length as the
    steady state sees it (a request of L tokens runs for L steps), so that the mean context
    of the requests running, prompt + E[L^2] / 2E[L], is ridge's prompt + osl / 2."""
    edges, counts = histogram["bins"], histogram["counts"]
    centres = [(a + b) / 2 for a, b in zip(edges, edges[1:])]
    first = sum(c * n for c, n in zip(centres, counts))
    second = sum(c * c * n for c, n in zip(centres, counts))
    return second / first


def vllm_config(benchmark: str, model_id: str, gpu: str) -> str:
    return git_show(benchmark, BENCHMARK_COMMIT,
                    f"configs/vllm/{TASK}/{model_id}/{gpu}/monolithic.config.yaml")


def parallelism(config: str, gpus: int) -> tuple:
    """vLLM's tensor-parallel size is the run's GPU count unless the config names a data-parallel
    size (mlenergy/benchmark/llm/benchmark.py, the monolithic server); --enable-expert-parallel
    splits the experts over the same GPUs."""
    lines = [line.split("#")[0].strip() for line in config.splitlines()]
    if any(line.startswith("data-parallel-size") for line in lines):
        raise SystemExit("a data-parallel config: not a layout ridge's columns describe")
    expert_parallel = "enable-expert-parallel: true" in lines
    return gpus, gpus if expert_parallel else 1


HEADER = f"""\
# Source: github.com/ml-energy/leaderboard @ {LEADERBOARD_COMMIT}, public/data/models/<org>__<model>__{TASK}.json (The ML.ENERGY Leaderboard v3: The ML.ENERGY Benchmark's runs on H100 and B200 GPUs), every configuration of the GPQA task; run settings from github.com/ml-energy/benchmark @ {BENCHMARK_COMMIT}, configs/vllm/{TASK}/<model>/<gpu>/. Added by ridge with scripts/import-mlenergy.py; held out (no figure of ridge's was fitted to them). M1 = the H100 rows, M2 = the B200 rows.
# Conditions: vLLM 0.11.1 (docs/overview.md), its OpenAI server in a container, async scheduling, chunked prefill up to 8,192 tokens a step, CUDA graphs (vLLM's default; gpt-oss's H100 configs ask for PIECEWISE graphs, whose attention runs outside them, and ridge prices it as if inside); tensor parallel over the run's GPUs, experts split over them too where the config enables expert parallelism. All of GPQA Diamond's 198 questions (times the sweep's repeats) sent at once, vLLM running up to max_num_seqs of them (mlenergy/benchmark/llm/benchmark.py). Thinking models reason before answering, so outputs run to thousands of tokens (up to 32,768).
# Quantity: the steady state's mean time per output token, tpot_ms_derived = 1000 x avg_batch_size / output_throughput_tokens_per_sec: the leaderboard's avg_batch_size is the mean of vLLM's running requests and its output throughput the steady state's tokens over its duration (github.com/ml-energy/data, mlenergy_data/records/runs.py), and each running request gains one token a step. The steady state begins when max_num_seqs requests have their first token and ends when all but max_num_seqs + 1 have finished. The median ITL is copied too but not compared: it is taken over every token of the run, its ramp-down at smaller batches included.
# Lengths: isl = {PROMPT_TOKENS}, an estimate (see scripts/import-mlenergy.py: GPQA Diamond's mean prompt, 841 characters in EvalScope's statistics with its own instruction, about 680 with this benchmark's, some 200 tokens with the chat template); osl = E[L^2] / E[L] over the leaderboard's histogram of the run's output lengths (bin centres): a running request's output length as the steady state weights it, so that ridge's mean decode context, isl + osl / 2, is the running requests' mean context. avg_output_len is the run's plain mean. batch = avg_batch_size rounded.
# Precision: the leaderboard's weight_precision: bfloat16 (bf16), fp8 (block-scaled e4m3 checkpoints, weights and activations: vLLM's W8A8 block FP8), mxfp4 (gpt-oss's experts in MXFP4: Marlin's weight-only kernels on the H100; the B200 configs set VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8, MXFP8 activations, which ridge prices as 16-bit compute). KV cache in the model's 16 bits (no kv-cache-dtype in the configs).
"""

COLUMNS = ["src", "framework", "model", "gpu", "n_gpus", "tp", "ep", "precision", "batch",
           "batch_semantics", "isl", "osl", "metric", "value", "unit", "max_num_seqs",
           "avg_batch_size", "output_throughput_tokens_per_sec", "median_itl_ms",
           "avg_output_len", "notes"]


def rows(leaderboard: str, benchmark: str):
    files = [f for f in git_files(leaderboard, LEADERBOARD_COMMIT, "public/data/models")
             if f.endswith(f"__{TASK}.json")]
    runs = []
    for name in sorted(files):
        data = json.loads(git_show(leaderboard, LEADERBOARD_COMMIT, f"public/data/models/{name}"))
        runs += [(data, c) for c in data["configurations"]]
    # M1's rows (the H100's) first, each model's by GPUs and requests.
    runs.sort(key=lambda r: (SOURCES[r[1]["gpu_model"]], r[0]["model_id"], r[1]["num_gpus"],
                             r[1]["max_num_seqs"]))
    for data, c in runs:
        model_id = data["model_id"]
        gpu = c["gpu_model"]
        tp, ep = parallelism(vllm_config(benchmark, model_id, gpu), c["num_gpus"])
        tpot_ms = 1000 * c["avg_batch_size"] / c["output_throughput_tokens_per_sec"]
        yield [
            SOURCES[gpu], "vLLM 0.11.1 (CUDA graphs, chunked prefill)", model_id, gpu,
            str(c["num_gpus"]), str(tp), str(ep), PRECISIONS[data["weight_precision"]],
            str(round(c["avg_batch_size"])), "requests in flight (steady-state mean)",
            str(PROMPT_TOKENS), str(round(length_weighted_output(
                c["output_length_distribution"]))),
            "tpot (steady state)", f"{tpot_ms:.4f}", "ms", str(c["max_num_seqs"]),
            repr(c["avg_batch_size"]), repr(c["output_throughput_tokens_per_sec"]),
            repr(c["median_itl_ms"]), repr(c["avg_output_len"]),
            "value = tpot_ms_derived"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("leaderboard", help="a clone of github.com/ml-energy/leaderboard")
    parser.add_argument("benchmark", help="a clone of github.com/ml-energy/benchmark")
    args = parser.parse_args()
    table = list(rows(args.leaderboard, args.benchmark))  # all read before anything is written
    out = sys.stdout
    out.write(HEADER)
    for gpu, (device, why) in DEVICES.items():
        out.write(f"# ridge: device {gpu} = {device} ({why})\n")
    out.write("\t".join(COLUMNS) + "\n")
    for row in table:
        out.write("\t".join(row) + "\n")


if __name__ == "__main__":
    main()
