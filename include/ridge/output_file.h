#pragma once
// Files ridge writes appear whole or not at all: the content goes to a temporary file beside
// the target, which is renamed over it once complete. An interrupted write (Ctrl-C, SIGTERM)
// removes the temporary file and leaves any existing target untouched.

#include <string>

namespace ridge {

class OutputFile {
 public:
  // Checks now, by creating and removing a probe file beside it, that the path can be written,
  // so an unwritable path is bad input before any work is done.
  explicit OutputFile(std::string path);

  // Writes the whole content to a temporary file and renames it into place. Only during this
  // call does a temporary file exist, so even SIGKILL during a long run leaves nothing behind.
  void commit(const std::string& content);

 private:
  std::string path_;
};

// Installs the SIGINT/SIGTERM handler that removes a pending temporary file before exiting.
void remove_partial_output_on_interrupt();

}  // namespace ridge
