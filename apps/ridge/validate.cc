#include "common.h"
#include "ridge/error.h"
#include "ridge/input_file.h"
#include "ridge/validation.h"
#include "ridge/views.h"

namespace ridge::cli {

void add_validate(CLI::App& app, std::vector<Command>& commands) {
  auto files = std::make_shared<std::vector<std::string>>();
  CLI::App* sub = app.add_subcommand(
      "validate",
      "The bound and the expected time against published measurements (data/validation/); exit "
      "1 when a bound is above a measurement");
  sub->add_option("files", *files,
                  "Tab-separated files of real timings to run instead of the bundled ones");
  commands.push_back({sub, [files](const Session& s) {
                        if (files->empty())
                          return report::validation_document(run_bundled_validation(s.catalog()));
                        std::vector<ValidationSet> sets;
                        for (const std::string& path : *files) {
                          const std::optional<std::string> text = read_text_file(path);
                          if (!text) input_error("cannot read validation file '{}'", path);
                          for (ValidationSet& set : run_validation_file(*text, path, s.catalog()))
                            sets.push_back(std::move(set));
                        }
                        return report::validation_document(sets);
                      }});
}

}  // namespace ridge::cli
