#pragma once
// Finds the events of a Chrome trace as the bytes stream past: each element of the root
// object's "traceEvents" and "deviceProperties" arrays (or of a root array, the legacy
// profiler's form) is handed over as its own JSON text, to be parsed on its own (simdjson), so
// that a trace of gigabytes never sits in memory. It tracks only strings and nesting; each
// element's own syntax is simdjson's to check.

#include <string>
#include <string_view>

#include "byte_source.h"
#include "ridge/error.h"

namespace ridge::profile_input {

enum class TraceSection { events, devices };

class EventSplitter {
 public:
  // Calls on_item(section, text) for each element. Bad input when the file does not start a
  // JSON object or array, or ends inside one (truncated).
  template <typename OnItem>
  void run(ByteSource& source, const std::string& file, OnItem on_item);

  bool legacy() const { return legacy_; }          // a root array: the legacy profiler's list
  bool saw_events() const { return saw_events_; }  // a traceEvents key at the top level

 private:
  bool capturing_section() const {
    return legacy_ || section_ == "traceEvents" || section_ == "deviceProperties";
  }
  int element_depth() const { return legacy_ ? 2 : 3; }

  int depth_ = 0;
  bool started_ = false;
  bool legacy_ = false;
  bool saw_events_ = false;
  bool in_string_ = false;
  bool escaped_ = false;
  bool capturing_ = false;
  bool key_capture_ = false;
  std::string key_;      // the string being read at the top level
  std::string pending_;  // the last string closed at the top level: a key when ':' follows
  std::string section_;
  std::string item_;
};

template <typename OnItem>
void EventSplitter::run(ByteSource& source, const std::string& file, OnItem on_item) {
  for (std::string_view chunk = source.chunk(); !chunk.empty(); chunk = source.chunk()) {
    std::size_t from = 0;  // where the captured part of this chunk starts
    for (std::size_t i = 0; i < chunk.size(); ++i) {
      const char c = chunk[i];
      if (in_string_) {
        if (escaped_) {
          escaped_ = false;
        } else if (c == '\\') {
          escaped_ = true;
        } else if (c == '"') {
          in_string_ = false;
          if (key_capture_) pending_ = key_;
          key_capture_ = false;
        } else if (key_capture_ && key_.size() < 64) {
          key_ += c;
        }
        continue;
      }
      switch (c) {
        case '"':
          in_string_ = true;
          key_capture_ = depth_ == 1 && !legacy_;
          key_.clear();
          break;
        case ':':
          if (depth_ == 1 && !legacy_) {
            section_ = pending_;
            saw_events_ = saw_events_ || section_ == "traceEvents";
          }
          break;
        case '{':
        case '[':
          if (!started_) {
            started_ = true;
            legacy_ = c == '[';
          }
          ++depth_;
          if (c == '{' && depth_ == element_depth() && capturing_section()) {
            capturing_ = true;
            from = i;
            item_.clear();
          }
          break;
        case '}':
        case ']':
          --depth_;
          if (capturing_ && depth_ == element_depth() - 1) {
            item_.append(chunk.substr(from, i + 1 - from));
            capturing_ = false;
            on_item(section_ == "deviceProperties" ? TraceSection::devices : TraceSection::events,
                    item_);
          }
          if (depth_ < 0) input_error("{}: not valid JSON: a '{}' closes nothing", file, c);
          break;
        case ' ':
        case '\n':
        case '\r':
        case '\t':
        case ',':
          break;
        default:
          if (!started_)
            input_error("{}: not a trace: it does not start a JSON object or list", file);
      }
    }
    if (capturing_) item_.append(chunk.substr(from));
    source.consume(chunk.size());
  }
  if (!started_) input_error("{}: not a trace: no JSON in it", file);
  if (depth_ != 0 || in_string_)
    input_error("{}: the trace ends inside its JSON (truncated at byte {})", file,
                source.bytes_read());
}

}  // namespace ridge::profile_input
