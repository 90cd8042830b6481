#pragma once
// The device catalog: built-in devices compiled from data/devices/*.toml, plus user files.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ridge/device.h"

namespace ridge {

// Parses one device description. `origin` names the text in error messages
// ("file:line:column: field: problem").
Device parse_device_toml(std::string_view text, const std::string& origin);

// Reads a device file: TOML, or a measurement (JSON) written by `ridge measure --out`, which
// becomes a device named after the file. A missing or unreadable file is bad input.
Device load_device_file(const std::filesystem::path& path);

// Which devices a listing shows and in what order: by year, oldest first, so that the table
// reads as a history of the ridge; by ridge, bandwidth or headline peak, the largest first.
enum class DeviceOrder { year, ridge, bandwidth, peak };
std::optional<DeviceOrder> find_device_order(std::string_view name);
std::vector<std::string> device_order_names();  // "year", "ridge", "bandwidth", "peak"

struct DeviceQuery {
  std::string vendor;  // case-insensitive; empty: every vendor
  std::optional<DeviceKind> kind;
  DeviceOrder order = DeviceOrder::year;
};

class Catalog {
 public:
  // Every built-in device, parsed once.
  static const Catalog& builtin();

  // Adds a device, replacing one with the same ID.
  void add(Device device);

  const std::vector<Device>& devices() const { return devices_; }
  // The devices a query selects, in its order. Bad input when a vendor names none of the
  // catalog's vendors (the message lists them).
  std::vector<Device> select(const DeviceQuery& query) const;
  const Device* find(std::string_view id) const;
  // Bad input naming the closest IDs when there is no such device.
  const Device& get(std::string_view id) const;
  std::vector<std::string> closest_ids(std::string_view id, std::size_t count) const;
  // The spec of the part a runtime calls `name`: the device listing it among its runtime names,
  // else the one device whose name begins with it ("NVIDIA L40S"); null when none or several do.
  const Device* find_by_runtime_name(std::string_view name) const;

 private:
  std::vector<Device> devices_;
};

}  // namespace ridge
