// The C++ side of `import ridge`: ridge's command line run in process, and its command tree so
// that the Python side can turn keyword arguments into options. No figure is computed here;
// python/ridge/__init__.py wraps what this returns.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "command_line.h"
#include "ridge/catalog.h"
#include "ridge/error.h"
#include "run_command.h"

namespace py = pybind11;

namespace {

// One option as the Python side needs it: how it is spelt, and how many values it takes.
py::dict describe(const CLI::Option& option) {
  py::dict d;
  d["name"] = option.get_positional()       ? option.get_name()
              : option.get_lnames().empty() ? option.get_name()
                                            : "--" + option.get_lnames()[0];
  d["positional"] = option.get_positional();
  d["flag"] = option.get_items_expected_max() == 0;
  d["repeatable"] = option.get_items_expected_max() > 1;
  d["required"] = option.get_required();
  d["help"] = option.get_description();
  d["default"] = option.get_default_str();
  return d;
}

// {name: {"help", "options": [...], "subcommands": {...}}}, the whole tree under `app`.
py::dict describe(const CLI::App& app) {
  py::dict commands;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    py::dict d;
    d["help"] = sub->get_description();
    d["needs_subcommand"] = sub->get_require_subcommand_min() > 0;
    py::list options;
    for (const CLI::Option* option : sub->get_options()) {
      if (option->get_name() == "--help" || option->get_name() == "-h,--help") continue;
      if (option->get_lnames().empty() && !option->get_positional()) continue;
      options.append(describe(*option));
    }
    d["options"] = options;
    d["subcommands"] = describe(*sub);
    commands[py::str(sub->get_name())] = d;
  }
  return commands;
}

py::dict command_tree() {
  ridge::cli::CommandLine command_line;
  py::dict tree;
  py::list globals;
  for (const CLI::Option* option : command_line.app().get_options()) {
    if (option->get_lnames().empty() || option->get_lnames()[0] == "help" ||
        option->get_lnames()[0] == "version")
      continue;
    globals.append(describe(*option));
  }
  tree["options"] = globals;
  tree["subcommands"] = describe(command_line.app());
  return tree;
}

}  // namespace

PYBIND11_MODULE(_ridge, m) {
  m.doc() = "ridge's command line, run in this process (use the ridge package, not this module)";
  m.def(
      "run",
      [](const std::vector<std::string>& args) {
        ridge::cli::Outcome outcome;
        {
          // A measurement runs for seconds: other Python threads go on meanwhile.
          py::gil_scoped_release release;
          outcome = ridge::cli::run_command_line(args, false);
        }
        return py::make_tuple(outcome.exit_code, py::bytes(outcome.out), outcome.err);
      },
      py::arg("args"),
      "Runs `ridge ARGS...`; returns (exit code, standard output as bytes, standard error)");
  m.def("commands", &command_tree, "The command tree: each command's options and subcommands");
  m.def(
      "device_id",
      [](const std::string& path) {
        try {
          return ridge::load_device_file(path).id;
        } catch (const ridge::InputError& e) {
          throw py::value_error(e.what());
        }
      },
      py::arg("path"), "The id of the device a device or measurement file describes");
  m.attr("version") = RIDGE_VERSION;
}
