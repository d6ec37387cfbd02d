// Test helper: write a YAML text to a unique temporary file (removed at scope exit).
#pragma once

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace ccnet::test {

class TempConfig {
 public:
  explicit TempConfig(const std::string& yaml, const std::string& stem = "cfg") {
    static int counter = 0;
    path_ = (std::filesystem::temp_directory_path() /
             (stem + "_" + std::to_string(getpid()) + "_" + std::to_string(counter++) + ".yaml")).string();
    std::ofstream(path_) << yaml;
  }
  ~TempConfig() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace ccnet::test
