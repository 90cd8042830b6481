"""Makes the CPU traces the profile tests read, with the PyTorch profiler on this machine: a
small MLP and an attention block, recorded with record_shapes=True and with_flops=True.

Writes, in OUT:
  torch_export.json  what torch.profiler's export_chrome_trace wrote (Debian's python3-torch
                     1.13 is built without Kineto: its export is the legacy event list, which
                     carries names and times but no shapes or FLOPs)
  kineto.json        the same profiler events in the layout Kineto's exporter writes (cat
                     "cpu_op", args "Input Dims", "Input type", "flops", "External id"); where
                     this torch has Kineto, its own export_chrome_trace
  shapes_only.json   kineto.json without the profiler's flops: FLOPs from the shapes alone
  expected.json      for every aten::mm: its shapes, 2 m n k and the profiler's own flops
(The tensors here are all float32, which is what the written "Input type" says.)

Usage: /usr/bin/python3 make_cpu_traces.py OUT
"""
import json
import os
import sys

import torch
from torch.profiler import ProfilerActivity, profile

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
torch.manual_seed(0)
mlp = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.ReLU(), torch.nn.Linear(256, 32))
x = torch.randn(16, 64)
q, k, v = (torch.randn(2, 4, 8, 16) for _ in range(3))
with profile(activities=[ProfilerActivity.CPU], record_shapes=True, with_flops=True) as prof:
    for _ in range(3):
        mlp(x)
        torch.softmax(q @ k.transpose(-1, -2) / 4.0, dim=-1) @ v
        torch.mm(torch.randn(8, 16), torch.randn(16, 4))
        torch.mm(torch.randn(32, 64), torch.randn(64, 128))
prof.export_chrome_trace(os.path.join(out, "torch_export.json"))

events = prof.events()
if torch.autograd.kineto_available():
    prof.export_chrome_trace(os.path.join(out, "kineto.json"))
else:
    trace = []
    for i, e in enumerate(events):
        args = {"External id": i + 1, "Input Dims": e.input_shapes,
                "Input type": ["float" if s else "" for s in e.input_shapes]}
        if e.flops:
            args["flops"] = e.flops
        trace.append({"ph": "X", "cat": "cpu_op", "name": e.name, "pid": 1, "tid": e.thread,
                      "ts": e.time_range.start, "dur": e.time_range.elapsed_us(), "args": args})
    with open(os.path.join(out, "kineto.json"), "w") as f:
        json.dump({"schemaVersion": 1, "traceEvents": trace}, f)
with open(os.path.join(out, "kineto.json")) as f:
    kineto = json.load(f)
for e in kineto["traceEvents"]:
    e.get("args", {}).pop("flops", None)
with open(os.path.join(out, "shapes_only.json"), "w") as f:
    json.dump(kineto, f)

mms = [{"dims": e.input_shapes, "flops": 2 * e.input_shapes[0][0] * e.input_shapes[0][1]
        * e.input_shapes[1][1], "profiler_flops": e.flops}
       for e in events if e.name == "aten::mm"]
with open(os.path.join(out, "expected.json"), "w") as f:
    json.dump({"mm": mms}, f)
