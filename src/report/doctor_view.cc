// `ridge doctor`: the backend plugins and whether each loads.
#include "report/cells.h"
#include "ridge/views.h"

namespace ridge::report {

Document doctor_document(const std::vector<BackendStatus>& backends) {
  Table t{"backends",
          {{"name", "backend", Align::left},
           {"purpose", "needed by", Align::left},
           {"built", "built"},
           {"loads", "loads"},
           {"path", "plugin", Align::left},
           {"problem", "problem", Align::left}},
          {}};
  bool broken = false;
  for (const BackendStatus& b : backends) {
    broken = broken || (b.built && !b.loads);
    t.rows.push_back({text_cell(b.name), text_cell(b.purpose),
                      bool_cell(b.built, b.built ? "yes" : "no"),
                      bool_cell(b.loads, b.loads ? "yes" : "no"),
                      b.path.empty() ? empty_cell() : text_cell(b.path),
                      b.problem.empty() ? empty_cell() : text_cell(b.problem)});
  }
  Document doc;
  doc.schema = "ridge.doctor/1";
  doc.title = "Measurement backends";
  doc.sections.push_back({"", "", {std::move(t)}, {}});
  doc.notes.push_back(
      "analytical commands load no backend; each is a plugin in lib/ridge/ beside the binary, "
      "opened by the first command that needs it (RIDGE_BACKEND_DIR names another folder)");
  doc.check_failed = broken;
  return doc;
}

}  // namespace ridge::report
