#pragma once
// Reading the files users hand to ridge (device files, measurements, model configs).

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace ridge {

// The largest input ridge reads: its device files, measurements and model configs are
// kilobytes.
inline constexpr std::size_t kMaxInputFileBytes = std::size_t{64} << 20;

// The whole file, or nothing when it cannot be read (missing, a directory, no permission); the
// caller says what the file was for in its error. Bad input when it is larger than
// kMaxInputFileBytes.
std::optional<std::string> read_text_file(const std::filesystem::path& path);

}  // namespace ridge
