#pragma once
// Units: how figures read in text. SI prefixes for rates and counts, binary prefixes for
// capacities.

#include <string>
#include <string_view>

namespace ridge::units {

// 3.35e12, "B/s" -> "3.35 TB/s": the largest prefix that leaves at least 1, with
// `significant` significant digits and trailing zeros dropped.
std::string si(double value, std::string_view unit, int significant = 4);

// 85899345920 -> "80 GiB"; up to two decimals, trailing zeros dropped.
std::string binary_bytes(double bytes);

// A capacity in the prefixes it was most likely specified in: binary when it is a whole number
// of MiB (80 GiB of HBM3, 50 MiB of L2), decimal otherwise (141 GB, 192 GB).
std::string capacity(double bytes);

// A parameter count: 7e9 -> "7B", 1.5e8 -> "150M".
std::string count(double value);

// A plain number with up to `decimals` decimals, trailing zeros dropped.
std::string plain(double value, int decimals = 6);

}  // namespace ridge::units

namespace ridge::units {

// A duration with the unit that keeps it readable: "27.2 ms", "138.8 µs", "2.1 s".
std::string seconds(double value, int significant = 4);

}  // namespace ridge::units

namespace ridge::units {

// A byte count as a user writes it: "1.5e9", "14G", "14GB", "16GiB", "512Ki". Decimal suffixes
// (K, M, G, T, P) are powers of 1000, binary ones (Ki, Mi, Gi, Ti, Pi) powers of 1024; a trailing
// "B" is allowed. Bad input when it does not parse or is not a positive finite size.
double parse_bytes(std::string_view text);

}  // namespace ridge::units
