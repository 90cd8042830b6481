#include <fmt/format.h>

#include "report/cells.h"
#include "ridge/bounds.h"
#include "ridge/catalog.h"
#include "ridge/roofline.h"
#include "ridge/units.h"
#include "ridge/views.h"

namespace ridge::report {

namespace {

Cell spread_cell(const Summary& s) { return number_cell(s.cv, fmt::format("{:.1f}%", s.cv * 100)); }

Fields machine_fields(const Measurement& m) {
  std::string caches;
  for (const CacheLevel& c : m.machine.caches) {
    caches += fmt::format("{}{} {}", caches.empty() ? "" : ", ", c.name,
                          units::capacity(static_cast<double>(c.bytes)));
    if (c.shared_by_cores > 1) caches += fmt::format(" per {} cores", c.shared_by_cores);
  }
  return Fields{{
      {"cpu", "CPU", text_cell(m.machine.cpu)},
      {"cores", "cores", integer_cell(m.machine.cores)},
      {"threads", "threads measured", integer_cell(m.threads)},
      {"isa", "widest ISA", text_cell(std::string(to_string(m.machine.isa)))},
      {"clock_hz", "sustained clock",
       number_cell(m.clock_hz, m.clock_hz > 0 ? units::si(m.clock_hz, "Hz") : "unknown")},
      {"vector_clock_hz", "clock, vector units busy",
       number_cell(m.vector_clock_hz,
                   m.vector_clock_hz > 0 ? units::si(m.vector_clock_hz, "Hz") : "unknown")},
      {"caches", "caches", text_cell(caches)},
      {"memory_bytes", "memory", capacity_cell(static_cast<double>(m.machine.memory_bytes))},
      {"created", "measured", text_cell(m.created)},
  }};
}

Fields gpu_fields(const Measurement& m, const GpuInfo& g) {
  return Fields{{
      {"gpu", "GPU", text_cell(fmt::format("{} (device {}, {})", g.name, g.index, g.pci_bus_id))},
      {"compute_capability", "compute capability",
       text_cell(fmt::format("{}.{}", g.compute_capability_major, g.compute_capability_minor))},
      {"sm_count", "SMs", integer_cell(g.sm_count)},
      {"sm_clock_hz", "SM clock (highest)",
       number_cell(g.sm_clock_hz, units::si(g.sm_clock_hz, "Hz"))},
      {"memory_clock_hz", "memory clock",
       number_cell(g.memory_clock_hz, units::si(g.memory_clock_hz, "Hz"))},
      {"memory_bus_bits", "memory bus",
       number_cell(g.memory_bus_bits, fmt::format("{} bits", g.memory_bus_bits))},
      {"memory_bytes", "memory", capacity_cell(static_cast<double>(g.memory_bytes))},
      {"l2_bytes", "L2", capacity_cell(static_cast<double>(g.l2_bytes))},
      {"shared_memory_per_sm_bytes", "shared memory per SM",
       capacity_cell(static_cast<double>(g.shared_memory_per_sm_bytes))},
      {"cuda", "CUDA driver / runtime",
       text_cell(fmt::format("{} / {}", g.driver_version, g.runtime_version))},
      {"host_cpu", "host CPU", text_cell(m.machine.cpu)},
      {"created", "measured", text_cell(m.created)},
  }};
}

Table peaks_table(const Measurement& m) {
  Table t{"peaks",
          {{"precision", "precision", Align::left},
           {"kernel", "kernel", Align::left},
           {"flops_per_s", "median"},
           {"min_flops_per_s", "min"},
           {"max_flops_per_s", "max"},
           {"cv", "cv"},
           {"theoretical_flops_per_s", "theoretical"},
           {"share_of_theoretical", "of that"},
           {"validated", "checked"}},
          {}};
  for (const PeakResult& p : m.peaks) {
    const double share =
        p.theoretical_flops_per_s > 0 ? p.flops_per_s.median / p.theoretical_flops_per_s : 0;
    t.rows.push_back(
        {text_cell(std::string(to_string(p.precision))), text_cell(p.kernel),
         flops_rate_cell(p.flops_per_s.median), flops_rate_cell(p.flops_per_s.min),
         flops_rate_cell(p.flops_per_s.max), spread_cell(p.flops_per_s),
         p.theoretical_flops_per_s > 0 ? flops_rate_cell(p.theoretical_flops_per_s) : empty_cell(),
         p.theoretical_flops_per_s > 0 ? percent_cell(share) : empty_cell(),
         bool_cell(p.validated, p.validated ? "ok" : "FAILED")});
  }
  return t;
}

Table levels_table(const Measurement& m) {
  Table t{"levels",
          {{"level", "level", Align::left}, {"bytes_per_s", "bandwidth (best kernel, median)"}},
          {}};
  for (const std::string& level : m.levels()) {
    // A working set between two levels measures neither: it is in the sweep, not a ceiling.
    if (level.find('/') != std::string::npos) continue;
    t.rows.push_back({text_cell(level), bandwidth_cell(m.level_bandwidth(level))});
  }
  return t;
}

Table sweep_table(const Measurement& m) {
  Table t{"bandwidth",
          {{"kernel", "kernel", Align::left},
           {"working_set_bytes", "working set"},
           {"level", "level", Align::left},
           {"bytes_per_s", "median"},
           {"min_bytes_per_s", "min"},
           {"max_bytes_per_s", "max"},
           {"cv", "cv"},
           {"bytes_per_s_with_write_allocate", "with write-allocate"},
           {"validated", "checked"}},
          {}};
  for (const BandwidthPoint& b : m.bandwidth) {
    t.rows.push_back({text_cell(b.kernel),
                      number_cell(b.working_set_bytes, units::binary_bytes(b.working_set_bytes)),
                      text_cell(b.level), bandwidth_cell(b.bytes_per_s.median),
                      bandwidth_cell(b.bytes_per_s.min), bandwidth_cell(b.bytes_per_s.max),
                      spread_cell(b.bytes_per_s),
                      bandwidth_cell(b.bytes_per_s.median * b.write_allocate_factor),
                      bool_cell(b.validated, b.validated ? "ok" : "FAILED")});
  }
  return t;
}

Table blas_table(const Measurement& m) {
  Table t{"blas",
          {{"weights", "weights", Align::left},
           {"n", "n"},
           {"batch", "batch"},
           {"op", "op", Align::left},
           {"flops_per_s", "median"},
           {"cv", "cv"}},
          {}};
  for (const BlasPoint& b : m.blas) {
    t.rows.push_back({text_cell(b.weights), integer_cell(b.n), integer_cell(b.batch),
                      text_cell(blas_op_name(b)), flops_rate_cell(b.flops_per_s.median),
                      spread_cell(b.flops_per_s)});
  }
  return t;
}

Table gemm_sweep_table(const Measurement& m) {
  Table t{"gemm_sweep",
          {{"m", "m"},
           {"n", "n"},
           {"k", "k"},
           {"groups", "groups"},
           {"precision", "precision", Align::left},
           {"library", "library", Align::left},
           {"flops_per_s", "median"},
           {"cv", "cv"}},
          {}};
  for (const GemmSweepPoint& g : m.gemm_sweep) {
    t.rows.push_back({integer_cell(g.m), integer_cell(g.n), integer_cell(g.k),
                      integer_cell(g.groups), text_cell(std::string(to_string(g.precision))),
                      text_cell(g.library), flops_rate_cell(g.flops_per_s.median),
                      spread_cell(g.flops_per_s)});
  }
  return t;
}

}  // namespace

namespace {

// The GPU beside its published spec, when the catalog has exactly one device of its name.
Section spec_section(const Measurement& m, const Device& spec) {
  Table t{"spec_vs_measured",
          {{"ceiling", "ceiling", Align::left},
           {"spec", "spec"},
           {"measured", "measured (median)"},
           {"share", "of spec"}},
          {}};
  const auto row = [&](std::string name, Cell spec_cell, Cell measured_cell, double share) {
    t.rows.push_back({text_cell(std::move(name)), std::move(spec_cell), std::move(measured_cell),
                      percent_cell(share)});
  };
  for (const PeakResult& p : m.peaks) {
    if (!spec.has_peak(p.precision)) continue;
    const double published = spec.peak(p.precision).value;
    const bool fma = p.kernel.starts_with("fma");
    row(fmt::format("{} {}", to_string(p.precision), fma ? "FMA" : "GEMM"),
        flops_rate_cell(published), flops_rate_cell(p.flops_per_s.median),
        p.flops_per_s.median / published);
  }
  const MemoryLevel& main = spec.main_memory();
  const double measured_main = m.level_bandwidth(m.gpu->main_memory_name());
  if (main.bandwidth_bytes_per_s && measured_main > 0) {
    row(main.name + " bandwidth", bandwidth_cell(main.bandwidth_bytes_per_s->value),
        bandwidth_cell(measured_main), measured_main / main.bandwidth_bytes_per_s->value);
  }
  const double measured_link = m.level_bandwidth("host link");
  for (const Link& l : spec.links) {
    if (l.kind != LinkKind::host || measured_link <= 0) continue;
    row(l.name + " (one way)", bandwidth_cell(l.bandwidth_bytes_per_s.value),
        bandwidth_cell(measured_link), measured_link / l.bandwidth_bytes_per_s.value);
  }
  return {
      "spec", fmt::format("Against the published {} ({})", spec.name, spec.id), {std::move(t)}, {}};
}

// Where the GEMV/GEMM sweep turns compute-bound, beside where the spec's and the measured
// ceilings say it should.
Fields crossover_fields(const Measurement& m, const Device* spec) {
  const Precision p = m.blas.front().precision;
  const double bytes_per_weight = bytes_per_element(p);
  Fields f;
  const double knee = measured_crossover_batch(m.blas);
  f.fields.push_back({"measured_crossover_batch", "the sweep turns compute-bound at batch",
                      number_cell(knee, knee > 0 ? units::plain(knee, 0) : "none seen")});
  double measured_peak = 0;
  for (const PeakResult& r : m.peaks) {
    if (r.precision == p) measured_peak = r.flops_per_s.median;
  }
  const double measured_bw = m.level_bandwidth(m.gpu->main_memory_name());
  if (measured_peak > 0 && measured_bw > 0) {
    const double batch =
        decode_crossover_batch(ridge_point({measured_peak, measured_bw}), bytes_per_weight);
    f.fields.push_back({"measured_ceilings_crossover_batch", "the measured ceilings predict",
                        number_cell(batch, units::plain(batch, 0))});
  }
  if (spec && spec->has_peak(p)) {
    const double batch = decode_crossover_batch(ridge_point(spec->ceiling(p)), bytes_per_weight);
    f.fields.push_back({"spec_crossover_batch", fmt::format("the {} spec predicts", spec->id),
                        number_cell(batch, units::plain(batch, 0))});
  }
  return f;
}

std::string blas_title(const Measurement& m) {
  const Precision p = m.blas.empty() ? Precision::fp32 : m.blas.front().precision;
  return fmt::format("GEMV against GEMM on the same {} weights ({})", to_string(p),
                     m.gpu ? "cuBLAS" : "OpenBLAS");
}

void add_gpu_sections(Document& doc, const Measurement& m) {
  const Device* spec = Catalog::builtin().find_by_runtime_name(m.gpu->name);
  if (!m.blas.empty()) {
    doc.sections.back().blocks.push_back(crossover_fields(m, spec));
    doc.sections.back().blocks.push_back(Paragraph{
        "One decode step reads every weight once; its time stays flat while the batch grows "
        "until the arithmetic catches up. The measured crossover is the batch at which the "
        "GEMV's time would buy the sweep's best rate."});
  }
  if (spec) doc.sections.push_back(spec_section(m, *spec));
}

}  // namespace

Document measurement_document(const Measurement& m) {
  Document doc;
  doc.schema = "ridge.measurement/1";
  if (m.gpu) {
    doc.title = fmt::format("Measured roofline of {} (GPU {}, {} SMs)", m.gpu->name, m.gpu->index,
                            m.gpu->sm_count);
    doc.sections.push_back({"", "", {gpu_fields(m, *m.gpu)}, {}});
  } else {
    doc.title = fmt::format("Measured roofline of {} ({} threads, {})", m.machine.cpu, m.threads,
                            to_string(m.machine.isa));
    doc.sections.push_back({"", "", {machine_fields(m)}, {}});
  }
  doc.sections.push_back({"peaks", "Compute ceilings", {peaks_table(m)}, {}});
  doc.sections.push_back({"levels", "Bandwidth ceilings", {levels_table(m), sweep_table(m)}, {}});
  doc.sections.push_back({"blas", blas_title(m), {blas_table(m)}, {}});
  if (!m.gemm_sweep.empty()) {
    doc.sections.push_back(
        {"gemm_sweep",
         "GEMM shape sweep: what a device loaded from this file interpolates its expected times in",
         {gemm_sweep_table(m)},
         {}});
  }
  if (m.gpu) {
    add_gpu_sections(doc, m);
    doc.notes.push_back(
        "bandwidth counts STREAM's bytes (read and write: 8, copy: 16, triad: 24 per element); "
        "the read sweep re-reads working sets smaller than the L2 within one launch, loads "
        "bypassing L1");
    doc.notes.push_back(
        "theoretical FMA peaks are SMs x FMA lanes x 2 x the highest SM clock the runtime "
        "reports; tensor-core GEMMs are timed through cuBLASLt on random operands and checked "
        "against the host on sampled elements");
  } else {
    doc.notes.push_back(
        "bandwidth counts STREAM's bytes (read: 8, copy: 16, triad: 24 per element); 'with "
        "write-allocate' adds the read of each line a cached store must fetch first");
    doc.notes.push_back(
        "theoretical peaks are cores x FLOP/cycle x clock, assuming two FMA pipes per core (one "
        "bf16 dot product) at the clock measured with the vector units busy");
  }
  for (const std::string& w : m.warnings) doc.notes.push_back("warning: " + w);
  doc.json = measurement_to_json(m);
  return doc;
}

Document lab_document(const LabResult& r) {
  Document doc;
  doc.schema = "ridge.lab/1";
  doc.title = "Lab: decode intensity by batch, then GEMV against GEMM on this CPU";
  Table batches{"batches",
                {{"batch", "batch"}, {"intensity", "FLOP/byte"}, {"bound", "bound", Align::left}},
                {}};
  for (const LabBatch& b : r.batches) {
    batches.rows.push_back({integer_cell(b.batch),
                            number_cell(b.intensity, units::plain(b.intensity, 1)),
                            text_cell(b.bound == Bound::compute ? "compute" : "memory")});
  }
  Section spec{
      "spec",
      fmt::format("1. Decode on the published {} ({})", r.device_id, to_string(r.precision)),
      {Fields{{{"ridge_flops_per_byte", "ridge", intensity_cell(r.ridge)},
               {"crossover_batch", "decode compute-bound above batch",
                number_cell(r.crossover_batch, units::plain(r.crossover_batch, 0))}}},
       std::move(batches),
       Paragraph{
           "One decode step reads every weight once and does 2 FLOPs per weight per sequence, "
           "so its intensity is the batch divided by the bytes per weight."}},
      {}};
  Table kernels{"kernels",
                {{"op", "op", Align::left},
                 {"batch", "batch"},
                 {"flops_per_s", "measured"},
                 {"cv", "cv"},
                 {"measured_s", "time"},
                 {"predicted_s", "roofline predicts"},
                 {"error", "error"},
                 {"expected_s", "expected ~"},
                 {"expected_error", "error"}},
                {}};
  for (const LabKernel* k : {&r.gemv, &r.gemm}) {
    kernels.rows.push_back({text_cell(blas_op_name(k->point)), integer_cell(k->point.batch),
                            flops_rate_cell(k->point.flops_per_s.median),
                            spread_cell(k->point.flops_per_s), time_cell(k->measured_s),
                            time_cell(k->predicted_s), percent_cell(k->error, 0),
                            time_cell(k->expected_s), percent_cell(k->expected_error, 0)});
  }
  const std::string verdict =
      r.passed
          ? fmt::format(
                "GEMM delivers {:.1f}x the FLOP/s of GEMV on the same weights: at batch 1 the "
                "kernel "
                "waits on memory, not arithmetic.",
                r.ratio)
          : fmt::format(
                "GEMM delivers only {:.1f}x the FLOP/s of GEMV, not the more than 2x expected: the "
                "weights may sit in a cache fast enough to feed GEMV, or the machine is busy.",
                r.ratio);
  Section cpu{
      "cpu",
      fmt::format("2. The same weights on this CPU: {} fp32 weights, {} threads", units::plain(r.n),
                  r.threads),
      {Fields{
           {{"cpu", "CPU", text_cell(r.machine.cpu)},
            {"measured_fp32_peak", "measured fp32 peak", flops_rate_cell(r.measured_fp32_peak)},
            {"measured_bandwidth", fmt::format("measured read bandwidth ({})", r.bandwidth_level),
             bandwidth_cell(r.measured_bandwidth)}}},
       std::move(kernels),
       Fields{{{"ceiling_gemm_flops_per_s",
                fmt::format("sgemm at batch {} (the achievable GEMM rate)", r.ceiling_gemm.batch),
                flops_rate_cell(r.ceiling_gemm.flops_per_s.median)},
               {"gemm_share_of_peak", "of the FMA peak", percent_cell(r.gemm_share_of_peak)},
               {"ratio", "GEMM / GEMV", ratio_cell(r.ratio)},
               {"passed", "more than 2x", bool_cell(r.passed, r.passed ? "yes" : "NO")}}},
       Paragraph{verdict}},
      {}};
  doc.sections = {std::move(spec), std::move(cpu)};
  doc.notes.push_back(
      "'roofline predicts' is max(FLOPs / measured peak, bytes / measured bandwidth), the ceilings "
      "being "
      "medians of this run: a lower bound up to their spread, so a small negative error means the "
      "kernel "
      "ran at the ceiling, and a positive one how far it stays above it");
  doc.notes.push_back(
      "'expected ~' is ridge's model on this run's ceilings, calibrated by the batch-512 sgemm "
      "alone (the rate BLAS reaches, below the FMA peak: packing, edges, the kernel's own "
      "loop), so the batch-1 and batch-64 figures are predictions of kernels it never saw "
      "(docs/predict.md)");
  doc.check_failed = !r.passed;
  return doc;
}

}  // namespace ridge::report
