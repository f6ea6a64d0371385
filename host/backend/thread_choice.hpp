// Whether a single network split over the CPU's threads (a barrier every cycle: exec_cpu.hpp's
// run_ranges) runs its next piece of cycles on all of them or on one. The barrier waits a
// scheduler time slice whenever another process holds one of the cores: on a 2-core VM with one
// core busy (2026-11-29) two threads ran an 8x8x8 Blue Gene/L alltoall 24x, a 16x16 torus 245x,
// slower than one thread did. So with run.threads = 0 (every core) the split runs in pieces, each
// timed, and now and then a piece on one thread: whichever took less time a cycle lately runs
// the pieces after; a probe that loses waits twice as many pieces for the next one. Results are
// the same on any number of threads, so only the time changes.
#pragma once
#include <algorithm>
#include <cstdint>

namespace ls {

class ThreadChoice {
 public:
  static constexpr uint64_t kPiece = 64;     // cycles a piece
  static constexpr uint64_t kProbe = 16;     // cycles a probe (short: it may be the slow way)
  static constexpr uint64_t kMaxWait = 256;  // pieces between probes at most
  struct Piece {
    bool split;  // on every thread (or on one)
    uint64_t cycles;
  };

  // The next piece, of at most `left` cycles.
  Piece next(uint64_t left) {
    probe_ = piece_ == next_probe_;
    split_ = probe_ ? !best() : best();
    return {split_, std::min(left, probe_ ? kProbe : kPiece)};
  }

  // The piece next() gave took `seconds`.
  void took(double seconds, uint64_t cycles) {
    // The way running smoothed (one slow piece, a page fault say, does not turn it); a probe's
    // own time replaces an old one.
    const double x = seconds / static_cast<double>(std::max<uint64_t>(cycles, 1));
    double& e = per_cycle_[split_];
    e = probe_ || e == 0 ? x : 0.75 * e + 0.25 * x;
    ++piece_;
    if (!probe_) return;
    // A probe that won is the way now, and the other is probed again soon; one that lost waits.
    wait_ = split_ == best() ? 1 : std::min(2 * wait_, kMaxWait);
    next_probe_ = piece_ + wait_;
  }

 private:
  // The faster way by the latest times; the split until both are timed.
  bool best() const {
    return per_cycle_[0] == 0 || per_cycle_[1] == 0 || per_cycle_[1] <= per_cycle_[0];
  }

  double per_cycle_[2] = {0, 0};  // seconds a cycle lately: [one thread, split]; 0 not yet timed
  uint64_t piece_ = 0, next_probe_ = 1, wait_ = 1;
  bool split_ = true, probe_ = false;
};

}  // namespace ls
