#pragma once
// Files ridge writes appear whole or not at all: the content goes to a file without a name in
// the target's directory (O_TMPFILE), which is linked under a temporary name and renamed over
// the target only once every byte is on disk. A crash before then, even SIGKILL, leaves nothing;
// Ctrl-C or SIGTERM in the two system calls between link and rename removes the temporary name.
// Where the filesystem lacks O_TMPFILE, a named temporary file (mkstemp) does the same, and only
// SIGKILL during the write itself can leave it behind.

#include <string>

namespace ridge {

class OutputFile {
 public:
  // Checks now, by opening a probe file beside it the way commit will, that the path can be
  // written, so an unwritable path (or a directory) is bad input before any work is done.
  explicit OutputFile(std::string path);

  // Writes the whole content, then puts it in place atomically (see above). Bad input naming the
  // path and the reason when it cannot.
  void commit(const std::string& content);

 private:
  std::string path_;
};

// Installs the SIGINT/SIGTERM handler that removes a pending temporary file before exiting.
void remove_partial_output_on_interrupt();

}  // namespace ridge
