#pragma once
// What the subcommands share: global options, device selection, number checks, and the
// registry of commands main dispatches to.

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ridge/catalog.h"
#include "ridge/document.h"
#include "ridge/measure.h"
#include "ridge/output_file.h"

namespace ridge::cli {

// The file a command writes to, opened (probed) before any work so that an unwritable path fails
// first; none when `path` is empty.
std::unique_ptr<OutputFile> open_output(const std::string& path);

struct GlobalOptions {
  std::string format = "text";
  std::vector<std::string> device_files;
  std::vector<std::string> calibration_files;
};

// The built-in catalog plus the devices of every --device-file.
class Session {
 public:
  explicit Session(const GlobalOptions& options);
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  const Catalog& catalog() const { return own_catalog_ ? *own_catalog_ : Catalog::builtin(); }
  // The device named by --device; without it, the last --device-file's device, else h100-sxm.
  // "host" measures this machine quickly on the spot.
  const Device& device(const std::string& id) const;
  // Whether --device-file named a device (then it is the default).
  bool device_file_given() const { return own_catalog_.has_value(); }

 private:
  // The built-in catalog, copied only when --device-file adds to it.
  std::optional<Catalog> own_catalog_;
  // Forgets the session's --calibration profiles when it ends, or when its constructor throws
  // (a member's destructor runs then too): a process may run many sessions.
  struct CalibrationScope {
    bool given = false;
    ~CalibrationScope();
  } calibrations_;
  // Measured on first use; kept outside the catalog so references into it stay valid.
  mutable std::optional<Device> host_;
  std::string default_id_ = "h100-sxm";
};

using Action = std::function<report::Document(const Session&)>;

struct Command {
  CLI::App* app;
  Action action;
};

// A progress bar on stderr when it is a terminal; nothing otherwise.
Progress progress_bar();

// Adds --device ID to a subcommand; an empty ID means "the default device".
void add_device_option(CLI::App& app, std::string& id);

// Adds --dtype P (default fp16).
void add_dtype_option(CLI::App& app, std::string& dtype);

// Validators that name the option and the bad value.
const CLI::Validator& positive_number();  // finite and > 0
const CLI::Validator& positive_count();   // a whole number from 1 to 10^18
const CLI::Validator& positive_int();     // a whole number from 1 to 2^31 - 1
const CLI::Validator& non_empty();        // a name: an empty one would mean the default
// A number from lo to hi, for figures whose meaning has bounds (bits per element, parameter
// counts): outside them a result is a denormal or overflows a count, not an answer.
CLI::Validator number_in(double lo, double hi);

void add_profile(CLI::App& app, std::vector<Command>& commands);
void add_tour(CLI::App& app, std::vector<Command>& commands, Action& default_action);
void add_op(CLI::App& app, std::vector<Command>& commands);
void add_devices(CLI::App& app, std::vector<Command>& commands);
void add_compare(CLI::App& app, std::vector<Command>& commands);
void add_occupancy(CLI::App& app, std::vector<Command>& commands);
void add_collective(CLI::App& app, std::vector<Command>& commands);
void add_parallel(CLI::App& app, std::vector<Command>& commands);
void add_chart(CLI::App& app, std::vector<Command>& commands);
void add_model(CLI::App& app, std::vector<Command>& commands);
void add_measure(CLI::App& app, std::vector<Command>& commands);
void add_lab(CLI::App& app, std::vector<Command>& commands);
void add_validate(CLI::App& app, std::vector<Command>& commands);
void add_doctor(CLI::App& app, std::vector<Command>& commands);

// "ridge VERSION" and the backends this build has, without loading any.
std::string version_text();

}  // namespace ridge::cli
