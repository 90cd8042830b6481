#include "ridge/input_file.h"

#include <fstream>

#include "ridge/error.h"

namespace ridge {

std::optional<std::string> read_text_file(const std::filesystem::path& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  // Read in blocks up to the cap, so that an endless source (/dev/zero, a runaway pipe) ends as
  // bad input instead of exhausting memory.
  std::string text;
  char block[1 << 16];
  while (in.read(block, sizeof block) || in.gcount() > 0) {
    text.append(block, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxInputFileBytes) {
      input_error("'{}' is larger than {} MiB: not a ridge input file", path.string(),
                  kMaxInputFileBytes >> 20);
    }
  }
  if (in.bad()) return std::nullopt;
  return text;
}

}  // namespace ridge
