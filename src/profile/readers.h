#pragma once
// The readers behind read_profile, one per format.

#include <string>

#include "byte_source.h"
#include "ridge/profile.h"

namespace ridge::profile_input {

Profile read_trace(ByteSource& source, const std::string& file);
Profile read_ncu_csv(const std::string& text, const std::string& file);

}  // namespace ridge::profile_input
