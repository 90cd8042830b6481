#!/usr/bin/env python3
"""Fits the one fitted figure of the shipped calibrations: `fixed.graph_kernel_floor`, what each
kernel of a model step costs under CUDA graphs beyond its bytes and FLOPs.

The fit set is gpt-fast's bf16 rows (source S3 of data/validation/llm_inference_gptfast_nemo.tsv:
torch.compile with CUDA graphs, batch 1, TP 1 to 8, A100 SXM 80GB). The figure is the one value
that makes their median signed error zero, everything else in the model as shipped; nothing else
is fitted, and no other set is looked at. `ridge validate` reports S3 as a fit set for that reason.

    scripts/fit-kernel-cost.py RIDGE            prints the fitted value, in seconds
    scripts/fit-kernel-cost.py RIDGE --check    exit 1 when the shipped value is not the fit's
"""

import argparse
import json
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROFILES = ["ampere", "hopper"]  # the profiles that carry the fitted figure
FIT_FILE = ROOT / "data/validation/llm_inference_gptfast_nemo.tsv"
FIT_SOURCE = "S3"
FIGURE = re.compile(r"^(graph_kernel_floor = \{ value = )([0-9.eE+-]+)", re.M)


def shipped_value() -> float:
    values = {float(FIGURE.search((ROOT / f"data/calibration/{p}.toml").read_text()).group(2))
              for p in PROFILES}
    if len(values) != 1:
        sys.exit(f"the profiles {PROFILES} disagree on graph_kernel_floor: {sorted(values)}")
    return values.pop()


def fit_errors(ridge: str, value: float, scratch: pathlib.Path) -> list[float]:
    """The errors of the fit set's bf16 rows with graph_kernel_floor at `value`."""
    files = []
    for p in PROFILES:
        text = FIGURE.sub(lambda m: f"{m.group(1)}{value:.6g}",
                          (ROOT / f"data/calibration/{p}.toml").read_text())
        path = scratch / f"{p}.toml"
        path.write_text(text)
        files.append(str(path))
    out = subprocess.run([ridge, "--format", "json", "--calibration", *files, "validate",
                          str(FIT_FILE)], capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit(f"ridge validate failed: {out.stderr.strip()}")
    document = json.loads(out.stdout)
    errors = []
    for key, section in document.items():
        if not isinstance(section, dict) or f" {FIT_SOURCE}: " not in section.get("title", ""):
            continue
        errors += [p["error"] for p in section["points"]
                   if p.get("error") is not None and p["label"].endswith("bf16")]
    if not errors:
        sys.exit(f"no bf16 rows of source {FIT_SOURCE} in {FIT_FILE}")
    return errors


def fit(ridge: str) -> float:
    """Bisection: the median error rises with the per-kernel cost."""
    low, high = 0.0, 50e-6
    with tempfile.TemporaryDirectory() as scratch:
        for _ in range(30):
            middle = (low + high) / 2
            if statistics.median(fit_errors(ridge, middle, pathlib.Path(scratch))) < 0:
                low = middle
            else:
                high = middle
    return (low + high) / 2


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ridge", help="the ridge executable")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when the shipped value is not the fit's (to 0.1 us)")
    args = parser.parse_args()
    fitted = round(fit(args.ridge) * 1e7) / 1e7  # to 0.1 us, as the profiles carry it
    if not args.check:
        print(f"{fitted:.1e}")
        return 0
    shipped = shipped_value()
    if abs(shipped - fitted) > 0.5e-7:
        print(f"graph_kernel_floor: shipped {shipped:.1e} s, the fit gives {fitted:.1e} s",
              file=sys.stderr)
        return 1
    print(f"graph_kernel_floor {shipped:.1e} s is the fit's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
