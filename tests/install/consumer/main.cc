#include <cstdio>

#include "ridge/analysis.h"
#include "ridge/catalog.h"
#include "ridge/op.h"

int main() {
  const ridge::Device& h100 = ridge::Catalog::builtin().get("h100-sxm");
  const ridge::OpAnalysis a =
      ridge::analyse(ridge::gemv(4096, 4096, 2), h100, ridge::Precision::fp16);
  std::printf("%s ridge %.1f bound %s\n", a.device_id.c_str(), a.ridge,
              ridge::to_string(a.bound).data());
  return 0;
}
