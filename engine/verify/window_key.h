// A row's identity inside a binlog window (skip-window verification and the skip/resume-from preview): its key
// values as text, NULL and '' told apart.
#pragma once

#include <string>
#include <vector>

#include "engine/apply/sql_value.h"

namespace syncscope::verify {

inline std::string windowKeyId(const std::vector<apply::SqlValue>& key) {
    std::string id;
    for (const auto& value : key) {
        auto text = value.text();
        id += text ? "v" + std::to_string(text->size()) + ":" + *text : std::string("n");
    }
    return id;
}

}  // namespace syncscope::verify
