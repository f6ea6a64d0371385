// The write audit (`make audit`): which GPU threads would write one byte in one cycle, found on
// the CPU. The CPU runs a GPU schedule's threads one after another, so two of them adding to one
// counter give the right sum here and a lost update there (METRO's corrupted-word counter, found
// on an H100 on 2026-11-27); no order of a loop shows it. An audit build (CMake
// -DLOCKSTEP_WRITE_AUDIT=ON, CPU only) has GCC report every store the host code makes
// (-fsanitize=kernel-address with calls for writes, no checks), and the CPU's block, tile and
// role loops (exec_cpu.hpp) say which GPU thread each item stands for. A byte of a state array
// written in one cycle by two elements, by an element and a role, or by two lanes of one tile
// with no sync of the tile between them is a conflict, even where both write the same value (the
// CUDA memory model calls it a data race). In other builds the hooks are empty.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ls::audit {

// Role j of element k stands for the thread kRole + k * roles + j: never an element's number.
constexpr uint64_t kRole = uint64_t{1} << 48;

#ifdef LS_WRITE_AUDIT
constexpr bool kOn = true;  // the CPU backend then runs one thread: the audit's state is global
void region(const void* p, size_t bytes, const char* name);  // state to watch
void forget(const void* p);                                  // ... no longer (it is freed)
void begin();                                                // clear and start recording
std::vector<std::string> end();  // stop: the conflicts, described (at most 20, then a count)
void agent(uint64_t id);         // the item (element or role) whose cycle runs next
void lane(uint32_t k);           // the tile lane whose part runs next
void sync();                     // a tile's lanes meet
void cycle();                    // every item's cycle ended (a block barrier, a launch)
#else
constexpr bool kOn = false;
inline void region(const void*, size_t, const char*) {}
inline void forget(const void*) {}
inline void agent(uint64_t) {}
inline void lane(uint32_t) {}
inline void sync() {}
inline void cycle() {}
#endif

}  // namespace ls::audit
