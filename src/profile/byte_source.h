#pragma once
// A file read in chunks through zlib, so that a gzip-compressed trace and a plain one read the
// same way and neither is ever held whole in memory; and an input iterator over it for the
// JSON parser's SAX interface.

#include <zlib.h>

#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace ridge::profile_input {

class ByteSource {
 public:
  explicit ByteSource(const std::string& path);
  ~ByteSource();
  ByteSource(const ByteSource&) = delete;
  ByteSource& operator=(const ByteSource&) = delete;

  bool compressed() const { return compressed_; }
  // The next byte without taking it; -1 at the end.
  int peek() {
    if (pos_ == len_ && !refill()) return -1;
    return static_cast<unsigned char>(buffer_[pos_]);
  }
  void advance() { ++pos_; }
  bool at_end() { return peek() < 0; }
  std::size_t bytes_read() const { return consumed_ + pos_; }
  // Up to `n` bytes from the start, for recognising the format; the source is not moved.
  std::string head(std::size_t n);
  // Reads everything left (for small files, the CSV).
  std::string rest();
  // The bytes buffered now (refilling when none are): empty at the end. consume() takes them.
  std::string_view chunk() {
    if (pos_ == len_ && !refill()) return {};
    return {buffer_.data() + pos_, len_ - pos_};
  }
  void consume(std::size_t n) { pos_ += n; }

 private:
  bool refill();

  std::string path_;
  gzFile file_ = nullptr;
  bool compressed_ = false;
  std::vector<char> buffer_;
  std::size_t pos_ = 0;
  std::size_t len_ = 0;
  std::size_t consumed_ = 0;
};

// An input iterator over a ByteSource; the default-constructed one is the end.
class ByteIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = char;

  ByteIterator() = default;
  explicit ByteIterator(ByteSource& source) : source_(&source) {}
  char operator*() const { return static_cast<char>(source_->peek()); }
  ByteIterator& operator++() {
    source_->advance();
    return *this;
  }
  void operator++(int) { source_->advance(); }
  bool operator==(const ByteIterator& other) const { return done() == other.done(); }
  bool operator!=(const ByteIterator& other) const { return !(*this == other); }

 private:
  bool done() const { return source_ == nullptr || source_->at_end(); }
  ByteSource* source_ = nullptr;
};

}  // namespace ridge::profile_input
