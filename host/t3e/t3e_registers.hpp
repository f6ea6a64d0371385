// The T3E router registers as software loads them (manual, "Information Routing" and "Node and
// PE Numbers"), built by the host for every router of a configuration: physical and logical
// numbers, port orientation, routing tables, VC selection and channel control. The engine
// uploads them as named state arrays, so Python can read and edit them between cycles.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "../../kernels/t3e/register_bits.hpp"
#include "../../kernels/t3e/routing_tag.hpp"
#include "../config/config.hpp"
#include "../topology/topology.hpp"

namespace ls::t3e {

struct Registers {
  LutMode lut_mode = kMode0;
  uint32_t lut_entries = 0;             // R_NET_LUT entries per router (1 for mode3 and computed)
  std::vector<uint32_t> pwho;           // [R] R_PWHO: physical coordinates (routing_tag.hpp)
  std::vector<uint32_t> lwho;           // [R] R_LWHO: logical PE number of the router's PE
  std::vector<uint32_t> pe_router;      // [N] router of each logical PE
  std::vector<uint32_t> net_lut;        // [R, lut_entries] routing tags (routing_tag.hpp)
  std::vector<uint32_t> lut_override;   // [R] R_LUT_OVERRIDE's tag (mode3)
  std::vector<uint64_t> vcsel;          // [R, 6] R_VCSEL per direction
  std::vector<uint8_t> chan;            // [R, 8] R_CHAN per direction, then PE and I/O channel
  std::vector<uint8_t> dir_port;        // [R, 6] the router port of each direction (R_ORIENT)
  std::vector<uint32_t> bsu;            // [R, 32] BSU registers (barrier_tree.hpp)
  std::vector<uint32_t> base_lpe;       // [R] the PE's partition: base logical PE
  std::vector<uint32_t> virtual_limit;  // [R] ... and virtual PE limit (kNoPartition: none)

  // Gives logical PE `lpe` to router r, and r's old number to the router that had lpe, with
  // the partitions going along with the numbers (a hot spare taking a failed PE's place).
  void rename(uint32_t r, uint32_t lpe);
};

// Whether the default tables go + at half a ring whatever the source (t3e.half_ring_tie).
inline bool ties_plus(const Config& c) {
  return c.t3e.half_ring_tie == "plus";
}

// The registers of every router of a kx x ky x kz torus (build_cube's ports: 1 + 2d towards
// +d, 2 + 2d towards -d; machine_topology's, with a partial plane), as the configuration's [t3e]
// section asks; BSUs 0 .. barrier_bsus - 1 hold a tree over every PE rooted at router 0 (the
// router of logical PE 0 if router 0's slot is empty), the others nothing.
Registers make_registers(const Config& c, const Topology& t);

// R_PWHO of router r and the router port of direction dir, as R_ORIENT (t3e.r_orient) says.
uint32_t physical_node(const Config& c, const Topology& t, uint32_t r);
uint8_t direction_port(const Config& c, uint32_t dir);

// The router at each physical place (R_PWHO), for software's "the node at (x, y, z)".
class RouterAt {
 public:
  explicit RouterAt(const std::vector<uint32_t>& pwho) : at_(32 * 32 * 32, -1) {
    for (uint32_t r = 0; r < pwho.size(); ++r) at_[index(pwho[r])] = static_cast<int32_t>(r);
  }
  uint32_t operator()(uint32_t pwho) const { return static_cast<uint32_t>(at_[index(pwho)]); }

 private:
  static size_t index(uint32_t pwho) {
    return pwho_coord(pwho, 0) + 32 * (pwho_coord(pwho, 1) + 32 * size_t{pwho_coord(pwho, 2)});
  }
  std::vector<int32_t> at_;
};

// The router each router's link in each direction leads to, -1 none ([R, 6]).
std::vector<int32_t> neighbours(const Topology& t, const Registers& g);

// The LUT mode `lut_mode` names for `nodes` PEs ("auto": the first that fits).
LutMode lut_mode(const std::string& name, uint32_t nodes);

}  // namespace ls::t3e
