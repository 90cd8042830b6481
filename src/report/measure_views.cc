#include <fmt/format.h>

#include "report/cells.h"
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

Table peaks_table(const Measurement& m) {
  Table t{"peaks",
          {{"precision", "precision", Align::left},
           {"kernel", "kernel", Align::left},
           {"flops_per_s", "median"},
           {"min_flops_per_s", "min"},
           {"max_flops_per_s", "max"},
           {"cv", "cv"},
           {"theoretical_flops_per_s", "cores x FLOP/cycle x clock"},
           {"share_of_theoretical", "of that"}},
          {}};
  for (const PeakResult& p : m.peaks) {
    const double share =
        p.theoretical_flops_per_s > 0 ? p.flops_per_s.median / p.theoretical_flops_per_s : 0;
    t.rows.push_back(
        {text_cell(std::string(to_string(p.precision))), text_cell(p.kernel),
         flops_rate_cell(p.flops_per_s.median), flops_rate_cell(p.flops_per_s.min),
         flops_rate_cell(p.flops_per_s.max), spread_cell(p.flops_per_s),
         p.theoretical_flops_per_s > 0 ? flops_rate_cell(p.theoretical_flops_per_s) : empty_cell(),
         p.theoretical_flops_per_s > 0 ? percent_cell(share) : empty_cell()});
  }
  return t;
}

Table levels_table(const Measurement& m) {
  Table t{"levels",
          {{"level", "level", Align::left}, {"bytes_per_s", "bandwidth (best kernel, median)"}},
          {}};
  for (const char* level : {"L1", "L2", "L3", "DRAM"}) {
    if (const double bw = m.level_bandwidth(level); bw > 0)
      t.rows.push_back({text_cell(level), bandwidth_cell(bw)});
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
                      text_cell(b.batch == 1 ? "sgemv" : "sgemm"),
                      flops_rate_cell(b.flops_per_s.median), spread_cell(b.flops_per_s)});
  }
  return t;
}

}  // namespace

Document measurement_document(const Measurement& m) {
  Document doc;
  doc.schema = "ridge.measurement/1";
  doc.title = fmt::format("Measured roofline of {} ({} threads, {})", m.machine.cpu, m.threads,
                          to_string(m.machine.isa));
  doc.sections.push_back({"", "", {machine_fields(m)}, {}});
  doc.sections.push_back({"peaks", "Compute ceilings", {peaks_table(m)}, {}});
  doc.sections.push_back({"levels", "Bandwidth ceilings", {levels_table(m), sweep_table(m)}, {}});
  doc.sections.push_back(
      {"blas", "GEMV against GEMM on the same fp32 weights (OpenBLAS)", {blas_table(m)}, {}});
  doc.notes.push_back(
      "bandwidth counts STREAM's bytes (read: 8, copy: 16, triad: 24 per element); 'with "
      "write-allocate' adds the read of each line a cached store must fetch first");
  doc.notes.push_back(
      "theoretical peaks assume two FMA pipes per core (one bf16 dot product) at the clock "
      "measured with the vector units busy");
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
                 {"error", "error"}},
                {}};
  for (const LabKernel* k : {&r.gemv, &r.gemm}) {
    kernels.rows.push_back(
        {text_cell(k->point.batch == 1 ? "sgemv" : "sgemm"), integer_cell(k->point.batch),
         flops_rate_cell(k->point.flops_per_s.median), spread_cell(k->point.flops_per_s),
         time_cell(k->measured_s), time_cell(k->predicted_s), percent_cell(k->error, 0)});
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
       Fields{{{"ratio", "GEMM / GEMV", ratio_cell(r.ratio)},
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
  doc.check_failed = !r.passed;
  return doc;
}

}  // namespace ridge::report
