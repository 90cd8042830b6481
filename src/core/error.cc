#include "ridge/error.h"

namespace ridge {

void throw_input_error(const std::string& message) { throw InputError(message); }

}  // namespace ridge
