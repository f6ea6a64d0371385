// The generic virtual-channel router's parts the shared code reaches through its record
// (vc_family.cpp).
#pragma once
#include <vector>

#include "../config/schema.hpp"
#include "../topology/topology.hpp"

namespace ls::vc {

std::vector<KeyInfo> section_keys();                       // vc_keys.cpp
void validate(const Config& c, const TopologySize& size);  // vc_checks.cpp

}  // namespace ls::vc
