#include "ridge/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <random>

#include "ridge/error.h"

namespace ridge {

namespace {

// The temporary name being renamed into place, for the signal handler: a fixed buffer, since a
// handler may only call async-signal-safe functions.
char pending_temp[4096];

void remove_pending_and_exit(int signal_number) {
  if (pending_temp[0] != '\0') unlink(pending_temp);
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

std::string directory_of(const std::string& path) {
  const std::string parent = std::filesystem::path(path).parent_path().string();
  return parent.empty() ? "." : parent;
}

std::string temporary_name(const std::string& path) {
  static std::mt19937_64 random{std::random_device{}()};
  char suffix[17];
  std::snprintf(suffix, sizeof suffix, "%016llx", static_cast<unsigned long long>(random()));
  return path + ".tmp." + suffix;
}

// A file with no name in the target's directory (O_TMPFILE): until it is linked, no crash, not
// even SIGKILL, can leave it behind. -1 where the filesystem does not offer it.
int open_unnamed(const std::string& path) {
#ifdef O_TMPFILE
  return open(directory_of(path).c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
#else
  (void)path;
  errno = EOPNOTSUPP;
  return -1;
#endif
}

// Gives the unnamed file a temporary name beside the target, recorded for the signal handler.
// A named file (from mkstemp, where O_TMPFILE is missing) is only recorded.
bool name_temporary(int fd, const std::string& path, bool unnamed, std::string& temp) {
  if (unnamed) {
    const std::string self = "/proc/self/fd/" + std::to_string(fd);
    for (int attempt = 0;; ++attempt) {
      temp = temporary_name(path);
      if (linkat(AT_FDCWD, self.c_str(), AT_FDCWD, temp.c_str(), AT_SYMLINK_FOLLOW) == 0) break;
      if (errno != EEXIST || attempt == 8) return false;
    }
  }
  std::memcpy(pending_temp, temp.c_str(), temp.size() + 1);
  return true;
}

// The fallback: a named temporary file with the permissions O_TMPFILE would have given.
int open_named(const std::string& path, std::string& temp) {
  temp = path + ".tmp.XXXXXX";
  const int fd = mkstemp(temp.data());
  if (fd >= 0) {
    const mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
  }
  return fd;
}

bool write_all(int fd, const std::string& content) {
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    written += static_cast<std::size_t>(n);
  }
  return fsync(fd) == 0;
}

}  // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  // Room for the temporary name's suffix in the signal handler's buffer.
  if (path_.size() + 32 >= sizeof pending_temp) input_error("output path '{}' is too long", path_);
  std::error_code error;
  if (std::filesystem::is_directory(path_, error)) {
    input_error("cannot write '{}': it is a directory", path_);
  }
  // The probe: the same way commit will open the file, then nothing is left of it.
  int fd = open_unnamed(path_);
  std::string probe;
  if (fd < 0) {
    fd = open_named(path_, probe);
    if (fd >= 0) unlink(probe.c_str());
  }
  if (fd < 0) input_error("cannot write '{}': {}", path_, std::strerror(errno));
  close(fd);
}

void OutputFile::commit(const std::string& content) {
  std::string temp;
  int fd = open_unnamed(path_);
  const bool unnamed = fd >= 0;
  if (!unnamed) fd = open_named(path_, temp);
  if (fd < 0) input_error("cannot write '{}': {}", path_, std::strerror(errno));
  if (!unnamed) name_temporary(fd, path_, false, temp);
  bool done = write_all(fd, content);
  // Only now, with every byte on disk, does the file get a name, and at once the target's.
  done = done && (!unnamed || name_temporary(fd, path_, true, temp));
  done = done && std::rename(temp.c_str(), path_.c_str()) == 0;
  const std::string reason = std::strerror(errno);
  done = close(fd) == 0 && done;
  if (!done) {
    if (!temp.empty()) unlink(temp.c_str());
    pending_temp[0] = '\0';
    input_error("cannot write '{}': {}", path_, reason);
  }
  pending_temp[0] = '\0';
}

void remove_partial_output_on_interrupt() {
  std::signal(SIGINT, remove_pending_and_exit);
  std::signal(SIGTERM, remove_pending_and_exit);
}

}  // namespace ridge
