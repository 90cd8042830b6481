#pragma once
// Reading the files users hand to ridge (device files, measurements, model configs).

#include <filesystem>
#include <optional>
#include <string>

namespace ridge {

// The whole file, or nothing when it cannot be read (missing, a directory, no permission); the
// caller says what the file was for in its error.
std::optional<std::string> read_text_file(const std::filesystem::path& path);

}  // namespace ridge
