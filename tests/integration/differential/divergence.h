// What a differential case found: each divergence has a kind (the signature a shrink must keep, e.g.
// "rows-differ", "engine-error 1062") and a detail that names the table, rows or points.
#pragma once

#include <string>
#include <vector>

namespace syncscope::differential {

struct Divergence {
    std::string kind;
    std::string detail;
};

using Divergences = std::vector<Divergence>;

}  // namespace syncscope::differential
