// S-Connect's parts the shared code reaches through its record (sconnect_family.cpp).
#pragma once
#include <vector>

#include "../config/schema.hpp"
#include "../topology/topology.hpp"

namespace ls::sconnect {

std::vector<KeyInfo> section_keys();                       // sconnect_keys.cpp
void validate(const Config& c, const TopologySize& size);  // sconnect_checks.cpp

}  // namespace ls::sconnect
