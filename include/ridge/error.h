#pragma once
// Bad user input: the one exception type ridge throws for it. The CLI turns it into one line on
// stderr and exit code 2. Internal invariants use assert; failed measurements are recorded in
// their results, never thrown.

#include <fmt/format.h>

#include <stdexcept>
#include <string>
#include <utility>

namespace ridge {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The single place InputError is raised from.
[[noreturn]] void throw_input_error(const std::string& message);

template <typename... Args>
[[noreturn]] void input_error(fmt::format_string<Args...> format, Args&&... args) {
  throw_input_error(fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace ridge
