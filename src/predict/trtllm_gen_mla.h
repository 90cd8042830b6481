#pragma once
// TensorRT-LLM's trtllm-gen decode kernels for DeepSeek's latent attention on Blackwell
// (cpp/tensorrt_llm/kernels/trtllmGenKernels/fmha/fmhaKernels.h, selectMlaGenerationKernel and
// useSwapsMmaAbMlaGenKernel; FlashInfer's copy of the runner the same): which of its two kernels
// a decode step runs, and so how often it reads each sequence's latent cache.

#include "ridge/op.h"

namespace ridge::predict {

// How many times trtllm-gen's MLA decode kernel reads each sequence's latent cache in one step of
// shape `s` on a part of `sms` SMs. The low-latency kernel (SwapsMmaAbForGeneration) takes a
// sequence's query heads in tiles of 16 (8 where there are 8 or fewer), a CTA each, and every
// such CTA reads all of the sequence's keys: it runs for 32 heads or fewer, and for more where
// those CTAs fit on the SMs with each one's share of the keys, split up to one CTA a 256 keys
// while the SMs have room, within 1,024 keys. Otherwise the high-throughput kernel
// (KeepsMmaAbForGeneration) takes 64 heads a tile, 128 as one pair of CTAs whose 2-CTA MMA shares
// the keys' loads: one read. A prompt's step, or any other attention: 1.
double trtllm_gen_mla_key_reads(const AttentionShape& s, double sms);

}  // namespace ridge::predict
