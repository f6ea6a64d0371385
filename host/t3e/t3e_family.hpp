// The Cray T3E's parts the shared code reaches through its record (t3e_family.cpp).
#pragma once
#include <vector>

#include "../config/schema.hpp"
#include "../topology/topology.hpp"

namespace ls::t3e {

std::vector<KeyInfo> section_keys();                       // t3e_keys.cpp
void validate(const Config& c, const TopologySize& size);  // t3e_checks.cpp

}  // namespace ls::t3e
