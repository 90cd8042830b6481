#pragma once
// Files ridge writes appear whole or not at all: the content goes to a temporary file beside
// the target, which is renamed over it once complete. An interrupted run (Ctrl-C) removes the
// temporary file and leaves any existing target untouched.

#include <string>

namespace ridge {

class OutputFile {
 public:
  // Creates the temporary file now, so an unwritable path is bad input before any work is done.
  explicit OutputFile(std::string path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Writes the whole content and renames it into place.
  void commit(const std::string& content);

 private:
  std::string path_;
  std::string temp_;
  int fd_ = -1;
};

// Installs the SIGINT/SIGTERM handler that removes a pending temporary file before exiting.
void remove_partial_output_on_interrupt();

}  // namespace ridge
