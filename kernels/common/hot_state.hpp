// Hot state on chip (run.hot_state = "shared", block schedule): the arrays a family's cycle reads
// and writes every cycle (per-VC bytes, masks, allocator pointers, belt flags, terminal fields)
// are copied, one instance's slice each, into memory its block shares (a GPU block's shared
// memory) when a launch begins and back when it ends; the view's pointers to them are rebased
// onto the copies, so the kernels index them as before. Flit buffers stay where they are.
//
// A family names its hot arrays once, as pointer fields of its view (BatchEngine::hot_arrays);
// the list holds each field's byte offset in the view and its bytes per instance, so this code
// knows no family. On the CPU the global slices are overwritten while their copies are in use
// (CpuBlock::hide), so a cycle that reached an array through anything but the rebased pointer
// would read garbage and the CPU tests would see it.
#pragma once
#include <cstdint>
#include <cstring>

#include "hd.hpp"

namespace ls {

struct HotArray {
  uint64_t view_offset;  // of the pointer field in the family's view
  uint64_t bytes;        // one instance's slice: the array's bytes / instances
};

struct HotList {
  const HotArray* arrays = nullptr;  // on the backend
  uint32_t count = 0;
  uint64_t bytes = 0;  // room for every slice, each from a 16-byte boundary (hot_room)
};

LS_HD inline uint64_t hot_room(uint64_t bytes) {
  return (bytes + 15) & ~uint64_t{15};
}

// Copies instance `inst`'s slice of each hot array into `chip` (in = true) or back, the bytes
// spread over the block's threads. `v` is a view whose pointers are the global ones.
#ifdef __CUDACC__
#pragma nv_exec_check_disable
#endif
template <class Block, class View>
LS_HD void hot_copy(const Block& b, const HotList& hot, const View& v, unsigned char* chip,
                    uint64_t inst, bool in) {
  uint64_t off = 0;
  for (uint32_t i = 0; i < hot.count; ++i) {
    const HotArray a = hot.arrays[i];
    unsigned char* g;
    memcpy(&g, reinterpret_cast<const unsigned char*>(&v) + a.view_offset, sizeof g);
    g += inst * a.bytes;
    unsigned char* const c = chip + off;
    if (in)
      b.lanes(a.bytes, [&](uint64_t k) { c[k] = g[k]; });
    else
      b.lanes(a.bytes, [&](uint64_t k) { g[k] = c[k]; });
    off += hot_room(a.bytes);
  }
}

// Points view w's hot arrays at their copies in `chip` (so that index inst * per-instance + i
// lands on copy element i), and hides the global slices from a CPU block. `v`: the global view.
#ifdef __CUDACC__
#pragma nv_exec_check_disable
#endif
template <class Block, class View>
LS_HD void hot_rebase(const Block& b, const HotList& hot, const View& v, View& w,
                      unsigned char* chip, uint64_t inst) {
  uint64_t off = 0;
  for (uint32_t i = 0; i < hot.count; ++i) {
    const HotArray a = hot.arrays[i];
    unsigned char* g;
    memcpy(&g, reinterpret_cast<const unsigned char*>(&v) + a.view_offset, sizeof g);
    b.hide(g + inst * a.bytes, a.bytes);
    // As an integer: the rebased pointer itself points outside the copy (only indexes reach it).
    const uintptr_t p = reinterpret_cast<uintptr_t>(chip + off) - inst * a.bytes;
    memcpy(reinterpret_cast<unsigned char*>(&w) + a.view_offset, &p, sizeof p);
    off += hot_room(a.bytes);
  }
}

}  // namespace ls
