#!/usr/bin/env bash
# Rewrites README.md with the real output of the commands it shows. Run after `make build`.
set -euo pipefail
cd "$(dirname "$0")/.."
R=${RIDGE:-build/release/apps/ridge/ridge}
ex() { echo "\$ ridge $*"; { $R "$@" 2>&1 || true; } | sed "/^note/,\$d"; }
{
cat docs/readme/intro.md
echo '```console'; ex op decode --params 7e9 --batch 8; echo '```'
echo; echo 'The same as JSON, for programs (abridged):'; echo
echo '```console'; echo '$ ridge op gemm --m 4096 --n 4096 --k 4096 --format json'
$R op gemm --m 4096 --n 4096 --k 4096 --format json | grep -E '"(schema|flops|bytes|intensity|ridge|attainable_flops|bound|time_s|device|precision)"'; echo '```'
echo; echo '### The catalog'; echo
echo "$($R devices --format csv | tail -n +2 | wc -l) devices, every figure sourced: [docs/catalog.md](docs/catalog.md) lists them all with their"
echo 'documents. `ridge devices` filters (`--vendor`, `--kind gpu|tpu|accelerator|cpu`) and orders'
echo '(`--sort year|ridge|bandwidth|peak`).'; echo
echo '```console'; ex devices --vendor amd --sort ridge; echo '$ ridge device show h100-sxm   # excerpt'; $R device show h100-sxm | sed -n '10,13p;27,31p'; echo '```'
echo; echo '### The ridge over time, occupancy and all-reduce'; echo
echo '```console'; ex compare --devices v100-sxm2,a100-sxm-80gb,h100-sxm,b200; ex occupancy --blocks 133
ex collective allreduce --bytes 14G --gpus-per-node 8 --nodes 2; echo '```'
echo; echo '### The roofline as a picture'; echo
echo '```console'; echo '$ ridge chart --device h100-sxm --op "gemm m=4096 n=4096 k=4096" --op "decode params=7e9 batch=8" --op "add n=67108864" --out docs/images/h100-roofline.svg'; echo '```'
$R chart --device h100-sxm --op "gemm m=4096 n=4096 k=4096" --op "decode params=7e9 batch=8" --op "add n=67108864" --out docs/images/h100-roofline.svg >/dev/null
echo; echo '![The H100 roofline with three operations](docs/images/h100-roofline.svg)'; echo
echo 'Several devices, measured ceilings (dashed) beside the spec, an HTML report and the'
echo "tour's own charts: [docs/charts.md](docs/charts.md)."
cat docs/readme/model.md
echo '```console'; echo '$ ridge model --model llama-3.1-8b --batch 16 --prompt 1024 --gen 256   # summary'
$R model --model llama-3.1-8b --batch 16 --prompt 1024 --gen 256 | sed -n '1,22p'
echo '$ ridge model --model llama-3.1-8b --batch 16 --prompt 1024 --gen 256   # the decode step'
$R model --model llama-3.1-8b --batch 16 --prompt 1024 --gen 256 | sed -n '/^Decode/,/^where/p' | sed '$d'
ex model --model llama-2-70b --tp 8 --prompt 1024 --gen 256 --sweep batch=1,8,64,256
echo '$ ridge model --model deepseek-v3 --device h200-sxm --ep 8 --batch 64 --prompt 1024 --gen 256   # excerpt'
$R model --model deepseek-v3 --device h200-sxm --ep 8 --batch 64 --prompt 1024 --gen 256 | sed -n '1,12p'
$R model --model deepseek-v3 --device h200-sxm --ep 8 --batch 64 --prompt 1024 --gen 256 | sed -n '/^Decode/,$p' | grep -E '^(op |---|router|moe_|expert_gate|collective|moe_)' | head -12
echo '```'
cat docs/readme/profile.md
echo '```console'; echo '$ ridge profile tests/data/profiles/learningnote4dev__ncu_sgemm_cc80.csv --device a100-sxm-40gb   # excerpt'
$R profile tests/data/profiles/learningnote4dev__ncu_sgemm_cc80.csv --device a100-sxm-40gb | sed -n '/^kernel  /,/^$/p' | cut -c1-150
$R profile tests/data/profiles/learningnote4dev__ncu_sgemm_cc80.csv --device a100-sxm-40gb | sed -n '/^Where the time/,$p' | sed '/^note/,$d'
echo '$ ridge profile tests/data/profiles/learningnote4dev__ncu_sgemm_cc80.csv --device a100-sxm-40gb --chart docs/images/profile-sgemm-a100.svg'
$R profile tests/data/profiles/learningnote4dev__ncu_sgemm_cc80.csv --device a100-sxm-40gb --chart docs/images/profile-sgemm-a100.svg >/dev/null
echo '```'; echo
echo '![The sgemm profile on the A100 roofline, each kernel at its DRAM, L2 and L1 intensity](docs/images/profile-sgemm-a100.svg)'; echo
cat docs/readme/python.md
echo '```python'
# A short session, each statement shown as at the prompt with what it prints.
PYTHONPATH=${BUILD:-build/release}/python /usr/bin/python3 - <<'PY'
import contextlib, io
session = [
    'import ridge',
    'r = ridge.op("gemm", m=4096, n=4096, k=4096, dtype="fp16", device="h100-sxm")',
    'print(r.bound, round(r.intensity), f"{r.time_s * 1e6:.1f} us >=", f"{r.expected_time_s * 1e6:.1f} us ~")',
    'm = ridge.model("llama-3.1-8b", device="h100-sxm", batch=16, prompt=1024, gen=256)',
    'print(round(m.tokens_per_s), round(m.expected["tokens_per_s"]))',
    'rows = ridge.model("llama-2-70b", tp=8, sweep={"batch": [1, 8, 64]})',
    'print([round(row.tokens_per_s) for row in rows])',
    'try:\n    ridge.op("gemm", m=4096, n=4096, k=0)\nexcept ridge.InputError as e:\n    print("InputError:", e)',
]
scope = {}
for chunk in session:
    lines = chunk.split("\n")
    print(">>> " + lines[0])
    for line in lines[1:]:
        print("... " + line)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(chunk, scope)
    print(out.getvalue(), end="")
PY
echo '```'; echo
cat docs/readme/predict-intro.md
echo '```console'; echo '$ ridge op gemm --m 4096 --n 4096 --k 4096   # excerpt'
$R op gemm --m 4096 --n 4096 --k 4096 | sed -n '/time lower bound/,/expected as/p'
$R op gemm --m 4096 --n 4096 --k 4096 | grep -E '^  (calibration|applies as|extrapolated|fp16 peak reached|bandwidth reached|kernel floor)  '
echo '$ ridge model --model llama-3.1-8b --batch 16 --prompt 1024 --gen 256   # the expected times'
$R model --model llama-3.1-8b --batch 16 --prompt 1024 --gen 256 | sed -n '/^figure  /,/^end to end /p'
echo '$ ridge validate --summary'
$R validate --summary | sed -n '3,/^$/p' | sed '/^$/d'; echo '```'; echo
cat docs/readme/measure.md
echo '```console'; echo '$ ridge measure --quick --out host.json   # on the 2-core development VM, abridged'
$R measure --quick --out /tmp/ridge-readme-host.json | sed -n '1,20p;/^level/,/^DRAM/p'
echo '$ ridge lab'; { $R lab || true; } | sed -n '/^2\./,$p' | sed '/^note/,$d'; echo '```'
H200=docs/measurements/h200-2026-12-04
echo; echo '```console'; echo '$ ridge measure --backend cuda --out h200.json   # on an H200, abridged'
sed -n '1,3p;/^level /,/^host link/p;/^GEMV against/,/^hbm .* 512 /p' $H200/measure.txt
echo; sed -n '/^GEMM shape sweep/,/^ *2 .* 4096 .* 4096 .* fp16 /p' $H200/measure.txt; echo '...'
sed -n '/ 2048 .* 7168 .* 8 .* bf16 /p' $H200/measure.txt; echo
sed -n '/the sweep turns/,/^at which/p' $H200/measure.txt; echo
sed -n '/^Against the published/,/^PCIe/p' $H200/measure.txt
echo '```'; echo; cat $H200/summary.md | sed '1d'
cat docs/readme/tour.md
echo '```console'; echo '$ ridge tour'; $R tour | sed -n '/^2\. /,/^decode 7B/p'; echo '...'; echo '```'
cat docs/readme/bad-input.md
echo '```console'; ex op gemm --m 4096 --n 4096 --k 0; ex op gemm --m 1 --n 1 --k 1 --device h100
ex op add --n 10 --device v100-sxm2 --dtype bf16; echo '```'
cat docs/readme/rest.md
} > README.md.tmp
mv README.md.tmp README.md
