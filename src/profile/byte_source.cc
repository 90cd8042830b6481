#include "byte_source.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "ridge/error.h"

namespace ridge::profile_input {

namespace {

constexpr std::size_t kChunk = 1 << 20;

}  // namespace

ByteSource::ByteSource(const std::string& path) : path_(path), buffer_(kChunk) {
  file_ = gzopen(path.c_str(), "rb");
  if (file_ == nullptr) input_error("{}: cannot be read ({})", path, std::strerror(errno));
  gzbuffer(file_, kChunk);
  try {
    peek();
  } catch (...) {
    gzclose(file_);  // no destructor runs after a constructor throws
    throw;
  }
  // zlib reads a file without gzip's magic number through unchanged, and says so.
  compressed_ = gzdirect(file_) == 0;
}

ByteSource::~ByteSource() {
  if (file_ != nullptr) gzclose(file_);
}

bool ByteSource::refill() {
  consumed_ += len_;
  pos_ = len_ = 0;
  const int n = gzread(file_, buffer_.data(), static_cast<unsigned>(buffer_.size()));
  if (n < 0) {
    int code = 0;
    const char* message = gzerror(file_, &code);
    input_error("{}: cannot be decompressed ({})", path_, message);
  }
  if (n == 0) {
    int code = 0;
    const char* message = gzerror(file_, &code);
    // zlib reports a stream that ends before its trailer as Z_BUF_ERROR at the end.
    if (code == Z_BUF_ERROR || code == Z_DATA_ERROR)
      input_error("{}: the gzip stream is truncated or corrupt ({})", path_, message);
    return false;
  }
  len_ = static_cast<std::size_t>(n);
  return true;
}

std::string ByteSource::head(std::size_t n) {
  peek();
  return std::string(buffer_.data() + pos_, std::min(n, len_ - pos_));
}

std::string ByteSource::rest() {
  std::string out;
  while (peek() >= 0) {
    out.append(buffer_.data() + pos_, len_ - pos_);
    pos_ = len_;
  }
  return out;
}

}  // namespace ridge::profile_input
