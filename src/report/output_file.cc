#include "ridge/output_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include "ridge/error.h"

namespace ridge {

namespace {

// The temporary file being written, for the signal handler: a fixed buffer, since a handler may
// only call async-signal-safe functions.
char pending_temp[4096];

void remove_pending_and_exit(int signal_number) {
  if (pending_temp[0] != '\0') unlink(pending_temp);
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

}  // namespace

namespace {

// Creates a temporary file beside `path` and records it for the signal handler.
int create_temporary(const std::string& path, std::string& temp) {
  temp = path + ".tmp.XXXXXX";
  if (temp.size() >= sizeof pending_temp) input_error("output path '{}' is too long", path);
  const int fd = mkstemp(temp.data());
  if (fd < 0) input_error("cannot write '{}': {}", path, std::strerror(errno));
  std::memcpy(pending_temp, temp.c_str(), temp.size() + 1);
  return fd;
}

void forget_temporary(const std::string& temp) {
  pending_temp[0] = '\0';
  unlink(temp.c_str());
}

}  // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  std::string probe;
  close(create_temporary(path_, probe));
  forget_temporary(probe);
}

void OutputFile::commit(const std::string& content) {
  std::string temp;
  const int fd = create_temporary(path_, temp);
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = write(fd, content.data() + written, content.size() - written);
    if (n < 0) break;
    written += static_cast<std::size_t>(n);
  }
  const bool complete = written == content.size() && fsync(fd) == 0;
  const std::string reason = std::strerror(errno);
  if (close(fd) != 0 || !complete || std::rename(temp.c_str(), path_.c_str()) != 0) {
    forget_temporary(temp);
    input_error("cannot write '{}': {}", path_, reason);
  }
  pending_temp[0] = '\0';
}

void remove_partial_output_on_interrupt() {
  std::signal(SIGINT, remove_pending_and_exit);
  std::signal(SIGTERM, remove_pending_and_exit);
}

}  // namespace ridge
