// The CPU backend's state memory: arrays are placed one after another in large zeroed blocks
// aligned to 2 MiB, instead of each in its own calloc'd pages, and once the state outgrows the
// first block (8 MiB) the blocks are marked for transparent huge pages (madvise). A router's
// state is spread over dozens of arrays, so with 4 KiB pages every array a stage touches costs
// a TLB entry: the 32x32x32 torus (169 MB) walked the page tables ~2.4 times per router-cycle,
// and runs 7-14% faster in huge pages on the development VM. Smaller networks keep 4 KiB pages,
// which cost them nothing measurable there and keep their memory to what they touch. Where
// huge pages are unavailable the advice is ignored. Everything is freed with the arena.
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace ls {

class HostArena {
 public:
  HostArena() = default;
  HostArena(const HostArena&) = delete;
  HostArena& operator=(const HostArena&) = delete;
  ~HostArena() {
    for (const Block& b : blocks_) munmap(b.map, b.map_size);
  }

  // n zeroed bytes aligned to a cache line (so no 32-byte flit record straddles two).
  void* alloc(size_t n) {
    n = (n + kLine - 1) / kLine * kLine;
    if (blocks_.empty() || blocks_.back().size - blocks_.back().used < n) grow(n);
    Block& b = blocks_.back();
    void* p = b.base + b.used;
    b.used += n;
    return p;
  }

 private:
  static constexpr size_t kLine = 64;
  static constexpr size_t kHuge = size_t{2} << 20;
  static constexpr size_t kMinBlock = size_t{8} << 20;  // reserved, touched only as used

  struct Block {
    void* map;
    size_t map_size;
    char* base;  // 2 MiB aligned
    size_t size, used;
  };

  void grow(size_t n) {
    const size_t size = ((n > kMinBlock ? n : kMinBlock) + kHuge - 1) & ~(kHuge - 1);
    const size_t map_size = size + kHuge;  // room to align the block to a huge page
    void* map = mmap(nullptr, map_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) throw std::bad_alloc();
    const uintptr_t start = reinterpret_cast<uintptr_t>(map);
    char* base = reinterpret_cast<char*>((start + kHuge - 1) & ~(kHuge - 1));
    blocks_.push_back({map, map_size, base, size, 0});
#ifdef MADV_HUGEPAGE
    if (blocks_.size() > 1)
      for (const Block& b : blocks_) madvise(b.base, b.size, MADV_HUGEPAGE);
#endif
  }

  std::vector<Block> blocks_;
};

}  // namespace ls
