#include "ridge/units.h"

#include <gtest/gtest.h>

#include "ridge/error.h"
#include "ridge/precision.h"

namespace ridge {
namespace {

TEST(Units, SiPrefixes) {
  EXPECT_EQ(units::si(3.35e12, "B/s"), "3.35 TB/s");
  EXPECT_EQ(units::si(990e12, "FLOP/s"), "990 TFLOP/s");
  EXPECT_EQ(units::si(137438953472, "FLOP"), "137.4 GFLOP");
  EXPECT_EQ(units::si(12, "B"), "12 B");
  EXPECT_EQ(units::si(2e18, "FLOP"), "2 EFLOP");
}

TEST(Units, BinaryCapacities) {
  EXPECT_EQ(units::binary_bytes(80.0 * 1024 * 1024 * 1024), "80 GiB");
  EXPECT_EQ(units::binary_bytes(228 * 1024), "228 KiB");
  EXPECT_EQ(units::binary_bytes(141e9), "131.32 GiB");
  EXPECT_EQ(units::binary_bytes(512), "512 B");
}

TEST(Units, CapacitiesKeepTheirSpecifiedPrefixes) {
  EXPECT_EQ(units::capacity(80.0 * 1024 * 1024 * 1024), "80 GiB");
  EXPECT_EQ(units::capacity(50.0 * 1024 * 1024), "50 MiB");
  EXPECT_EQ(units::capacity(141e9), "141 GB");
  EXPECT_EQ(units::capacity(233472), "228 KiB");
}

TEST(Units, Counts) {
  EXPECT_EQ(units::count(7e9), "7B");
  EXPECT_EQ(units::count(1.5e8), "150M");
  EXPECT_EQ(units::count(1e15), "1000T");
}

TEST(Units, Seconds) {
  EXPECT_EQ(units::seconds(0.0272222), "27.22 ms");
  EXPECT_EQ(units::seconds(138.8e-6), "138.8 µs");
  EXPECT_EQ(units::seconds(2.5), "2.5 s");
  EXPECT_EQ(units::seconds(78.25e-9), "78.25 ns");
}

TEST(Units, ParseBytes) {
  EXPECT_DOUBLE_EQ(units::parse_bytes("14e9"), 14e9);
  EXPECT_DOUBLE_EQ(units::parse_bytes("14G"), 14e9);
  EXPECT_DOUBLE_EQ(units::parse_bytes("14GB"), 14e9);
  EXPECT_DOUBLE_EQ(units::parse_bytes("16GiB"), 16.0 * 1024 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(units::parse_bytes("512Ki"), 512.0 * 1024);
  for (const char* bad : {"", "abc", "12Q", "-5G", "0", "nan", "inf", "1e400"}) {
    EXPECT_THROW(units::parse_bytes(bad), InputError) << bad;
  }
}

TEST(Precision, NamesAndSizes) {
  EXPECT_EQ(parse_precision("BF16"), Precision::bf16);
  EXPECT_EQ(bytes_per_element(Precision::tf32), 4);
  EXPECT_EQ(bytes_per_element(Precision::fp8), 1);
  EXPECT_THROW(parse_precision("fp12"), InputError);
}

}  // namespace
}  // namespace ridge
