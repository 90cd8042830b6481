// When and where a measurement was made: no library needed, so these live in the core.
#include <unistd.h>

#include <ctime>

#include "ridge/measure.h"

namespace ridge {

std::string utc_timestamp() {
  const std::time_t t = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return text;
}

std::string host_name() {
  char name[256] = {};
  return gethostname(name, sizeof name - 1) == 0 ? name : "host";
}

Measurement stamped_measurement(bool quick, const MachineInfo& machine) {
  Measurement m;
  m.created = utc_timestamp();
  m.host = host_name();
  m.machine = machine;
  m.quick = quick;
  return m;
}

}  // namespace ridge
