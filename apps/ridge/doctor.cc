#include <fmt/format.h>

#include "common.h"
#include "ridge/backend.h"
#include "ridge/views.h"

namespace ridge::cli {

std::string version_text() {
  std::string built;
  for (const BackendStatus& b : backend_statuses(false)) {
    if (!b.built) continue;
    built += fmt::format("{}{}{}", built.empty() ? "" : ", ", b.name,
                         b.path.empty() ? " (plugin missing)" : "");
  }
  return fmt::format(
      "ridge {}\nbackends: {} (each loaded only by a command that needs it; `ridge doctor` loads "
      "them)",
      RIDGE_VERSION, built.empty() ? "none" : built);
}

void add_doctor(CLI::App& app, std::vector<Command>& commands) {
  CLI::App* sub = app.add_subcommand(
      "doctor", "The measurement backends: built, found and loading; exit 1 if one does not load");
  commands.push_back(
      {sub, [](const Session&) { return report::doctor_document(backend_statuses(true)); }});
}

}  // namespace ridge::cli
