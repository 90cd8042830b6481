#include "ridge/error.h"

namespace ridge {

void throw_input_error(std::string message) { throw InputError(std::move(message)); }

}  // namespace ridge
