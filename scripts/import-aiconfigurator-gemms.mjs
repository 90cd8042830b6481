#!/usr/bin/env node
// Writes data/validation/gemm_aiconfigurator_<part>_bf16.tsv from the GEMM tables NVIDIA's
// aiconfigurator collected on real GPUs (github.com/ai-dynamo/aiconfigurator,
// aic-core/src/aiconfigurator_core/systems/data/<part>/gemm/trtllm/<version>/gemm_perf.parquet):
// TensorRT-LLM's Linear layer in bf16 (cuBLAS), timed by CUDA-graph replay. The shapes kept follow
// one fixed rule, chosen before any was priced: m a power of two from 1 to 16384, n and k each a
// power of two from 512 to 16384.
//
// Usage: node scripts/import-aiconfigurator-gemms.mjs AICONFIGURATOR_CHECKOUT [OUT_DIR]
// Needs the npm packages hyparquet and hyparquet-compressors (Debian has no Parquet reader):
//   npm install --prefix /tmp/pq hyparquet hyparquet-compressors; NODE_PATH=/tmp/pq/node_modules
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'

const require = createRequire(path.join(process.env.NODE_PATH ?? '.', 'x.js'))
const { parquetReadObjects } = await import(require.resolve('hyparquet'))
const { compressors } = await import(require.resolve('hyparquet-compressors'))

const [checkout, outDir = 'data/validation'] = process.argv.slice(2)
if (!checkout) {
  console.error('usage: import-aiconfigurator-gemms.mjs AICONFIGURATOR_CHECKOUT [OUT_DIR]')
  process.exit(2)
}
const git = (...args) => execFileSync('git', ['-C', checkout, ...args], { maxBuffer: 1 << 28 })
const commit = git('rev-parse', 'HEAD').toString().trim()

// The part, its directory in aiconfigurator, the release whose table is read, and why the part
// is the catalog's (the tables' own 'device' column is CUDA's name for it).
const parts = [
  { id: 'a100', dir: 'a100_sxm', version: '1.0.0' },
  { id: 'h100', dir: 'h100_sxm', version: '1.3.0rc20' },
  { id: 'h200', dir: 'h200_sxm', version: '1.3.0rc20' },
  { id: 'b200', dir: 'b200_sxm', version: '1.3.0rc20' },
  // Blackwell's bandwidth share is fitted to this part's GEMVs (scripts/fit-calibration.py), so
  // its file is a fit set; the B200's stays held out.
  { id: 'b300', dir: 'b300_sxm', version: '1.3.0rc20',
    role: 'fit (the bandwidth share of data/calibration/blackwell.toml is fitted to its GEMVs by scripts/fit-calibration.py)' },
]
const powers = (from, to) => { const out = []; for (let x = from; x <= to; x *= 2) out.push(x); return out }
const keptM = new Set(powers(1, 16384))
const keptNK = new Set(powers(512, 16384))

for (const part of parts) {
  const file = `aic-core/src/aiconfigurator_core/systems/data/${part.dir}/gemm/trtllm/${part.version}/gemm_perf.parquet`
  const buf = git('show', `HEAD:${file}`)
  const rows = await parquetReadObjects({
    file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength), compressors })
  const kept = rows.filter(r => r.gemm_dtype === 'bfloat16' && keptM.has(Number(r.m)) &&
    keptNK.has(Number(r.n)) && keptNK.has(Number(r.k)))
  kept.sort((a, b) => Number(a.m) - Number(b.m) || Number(a.n) - Number(b.n) || Number(a.k) - Number(b.k))
  const devices = [...new Set(kept.map(r => r.device))]
  const lines = [
    `# Source: github.com/ai-dynamo/aiconfigurator @ ${commit}, ${file} (NVIDIA's aiconfigurator: GEMM latencies its collector measured on the part, collector/trtllm/collect_gemm.py).`,
    `# Conditions: TensorRT-LLM ${part.version}, its Linear layer in bf16 without bias, y = x W^T with x m-by-k and W n-by-k; timed by CUDA-graph replay after warm-up (collector/helper.py benchmark_with_power), weights smaller than the L2 replayed as up to five distinct copies so that each call reads them from memory. The device column is the table's own, CUDA's name for the part.`,
    `# Selection (ridge, fixed before any point was priced): bf16 rows with m a power of two from 1 to 16384 and n, k each a power of two from 512 to 16384; ${kept.length} of the table's ${rows.length} rows. Values verbatim (latency in ms). Added by scripts/import-aiconfigurator-gemms.mjs.`,
    ...(part.role ? [`# ridge: role = ${part.role}`] : []),
    'm\tn\tk\tdtype\tdevice\ttime_ms',
    ...kept.map(r => [r.m, r.n, r.k, 'bf16', r.device, r.latency].map(String).join('\t')),
  ]
  const out = path.join(outDir, `gemm_aiconfigurator_${part.id}_bf16.tsv`)
  fs.writeFileSync(out, lines.join('\n') + '\n')
  console.log(`${out}: ${kept.length} points (${devices.join(', ')})`)
}
