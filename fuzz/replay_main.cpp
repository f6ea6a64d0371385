// Replays a fuzz target's corpus with any compiler (no libFuzzer): every file named, or every
// file in each directory named, goes once through LLVMFuzzerTestOneInput. A finding aborts, so
// the ctest registered for the target fails on the input that broke it.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "fuzz_target.hpp"

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  size_t inputs = 0;
  for (int i = 1; i < argc; ++i) {
    std::vector<fs::path> files;
    if (fs::is_directory(argv[i])) {
      for (const auto& f : fs::directory_iterator(argv[i]))
        if (f.is_regular_file()) files.push_back(f.path());
    } else {
      files.push_back(argv[i]);
    }
    for (const fs::path& f : files) {
      std::ifstream in(f, std::ios::binary);
      const std::vector<uint8_t> data((std::istreambuf_iterator<char>(in)),
                                      std::istreambuf_iterator<char>());
      std::fprintf(stderr, "%s\n", f.c_str());
      LLVMFuzzerTestOneInput(data.data(), data.size());
      ++inputs;
    }
  }
  std::printf("replayed %zu inputs\n", inputs);
  return inputs == 0;  // an empty corpus is a mistake, not a pass
}
