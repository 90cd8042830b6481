#pragma once
// TensorRT-LLM's masked MHA decode kernel (cpp/tensorrt_llm/kernels/
// decoderMaskedMultiheadAttention/decoderMaskedMultiheadAttentionLaunch.h, mmha_launch_kernel_ex
// and multi_block_grid_setup, its bound on blocks from getMaxNumSeqLenTile in
// cpp/tensorrt_llm/common/attentionOp.cpp): how it sizes its blocks and splits each sequence's
// keys over them, which TensorRT-LLM runs on Ampere, Ada and Hopper where a decode step has as
// many K and V heads as query heads (XQA takes grouped queries).

#include "ridge/op.h"

namespace ridge::predict {

// One launch of the kernel: blocks of `threads` threads, `per_pair` of them for each sequence
// and query head (its keys split evenly over them), `per_sm` of them an SM at once.
struct MmhaGrid {
  double threads = 0;
  double per_pair = 1;
  double per_sm = 1;
};

// The grid for `pairs` sequence-head pairs over `keys` keys on `sms` SMs, a 16-bit cache and a
// head of `d_head`. Registers hold an SM to 1024 of the kernel's threads (32 warps, the launch
// code's own count: four of its 256-thread blocks), so a grid of few pairs has its blocks grown
// from 256 threads by as many times as its pairs leave those four slots an SM empty, up to 1024;
// then each pair is split into as many blocks as fill the SMs once, at most ceil(SMs / pairs),
// and no more than one for each loop of its threads over the keys (seq_len_per_kv_loop:
// threads / (the head's bytes / 16) x 8 keys). A grid of at least four pairs an SM keeps 256
// threads a block and one block a pair.
MmhaGrid mmha_grid(double pairs, double keys, double sms, double d_head);

}  // namespace ridge::predict
