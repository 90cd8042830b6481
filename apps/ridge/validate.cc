#include "common.h"
#include "ridge/error.h"
#include "ridge/input_file.h"
#include "ridge/validation.h"
#include "ridge/views.h"

namespace ridge::cli {

namespace {

struct ValidateArgs {
  std::vector<std::string> files;
  std::vector<std::string> set_names;
  bool summary = false;
};

std::vector<ValidationSet> run_files(const std::vector<std::string>& files,
                                     const Catalog& catalog) {
  std::vector<ValidationSet> sets;
  for (const std::string& path : files) {
    const std::optional<std::string> text = read_text_file(path);
    if (!text) input_error("cannot read validation file '{}'", path);
    for (ValidationSet& set : run_validation_file(*text, path, catalog))
      sets.push_back(std::move(set));
  }
  return sets;
}

}  // namespace

void add_validate(CLI::App& app, std::vector<Command>& commands) {
  auto args = std::make_shared<ValidateArgs>();
  CLI::App* sub = app.add_subcommand(
      "validate",
      "The bound and the expected time against published measurements (data/validation/); exit "
      "1 when a bound is above a measurement");
  sub->add_option("files", args->files,
                  "Tab-separated files of real timings to run instead of the bundled ones");
  sub->add_option("--set", args->set_names,
                  "Only the sets whose name contains this, any case (e.g. l40s, decode_attention, "
                  "S8); several pick each one's sets")
      ->allow_extra_args(false);
  sub->add_flag("--summary", args->summary, "Each set's errors alone, without its points");
  commands.push_back({sub, [args](const Session& s) {
                        std::vector<ValidationSet> sets = args->files.empty()
                                                              ? run_bundled_validation(s.catalog())
                                                              : run_files(args->files, s.catalog());
                        return report::validation_document(
                            validation_sets_named(std::move(sets), args->set_names), args->summary);
                      }});
}

}  // namespace ridge::cli
