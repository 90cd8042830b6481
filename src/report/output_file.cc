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

OutputFile::OutputFile(std::string path) : path_(std::move(path)), temp_(path_ + ".tmp.XXXXXX") {
  if (temp_.size() >= sizeof pending_temp) input_error("output path '{}' is too long", path_);
  fd_ = mkstemp(temp_.data());
  if (fd_ < 0) input_error("cannot write '{}': {}", path_, std::strerror(errno));
  std::memcpy(pending_temp, temp_.c_str(), temp_.size() + 1);
}

OutputFile::~OutputFile() {
  if (fd_ >= 0) {
    close(fd_);
    unlink(temp_.c_str());
  }
  pending_temp[0] = '\0';
}

void OutputFile::commit(const std::string& content) {
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = write(fd_, content.data() + written, content.size() - written);
    if (n < 0) input_error("cannot write '{}': {}", path_, std::strerror(errno));
    written += static_cast<std::size_t>(n);
  }
  if (fsync(fd_) != 0 || close(fd_) != 0)
    input_error("cannot write '{}': {}", path_, std::strerror(errno));
  fd_ = -1;
  if (std::rename(temp_.c_str(), path_.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    unlink(temp_.c_str());
    input_error("cannot write '{}': {}", path_, reason);
  }
  pending_temp[0] = '\0';
}

void remove_partial_output_on_interrupt() {
  std::signal(SIGINT, remove_pending_and_exit);
  std::signal(SIGTERM, remove_pending_and_exit);
}

}  // namespace ridge
