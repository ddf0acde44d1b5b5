// gh-ost's statements replayed by hand against the upstream (the tool is not installed), as its docs
// (doc/cut-over.md) and go/logic/applier.go write them, beside an application's writes to the table `t`.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>

#include "engine/source/upstream_connection.h"

namespace syncscope::test {

// The tables of a gh-ost-like tool for `t`.
struct ToolNaming {
    std::string ghost;      // gh-ost's _t_gho
    std::string trash;      // _t_del
    std::string changelog;  // _t_ghc; empty for a tool without one (and without the cut-over's sentry)
    std::string comment;    // gh-ost writes /* gh-ost */ into its statements
};

class GhostToolReplay {
public:
    GhostToolReplay(source::UpstreamConnection& up, std::string schema, uint32_t seed);

    // The application's table: t (id, k, c) with `rows` rows.
    void createAppTable(int rows);
    // Writes to t as the application does (insert, update, delete of random rows); with a tool, each write
    // is followed by what gh-ost's binlog applier writes to the ghost for it (REPLACE, UPDATE, DELETE).
    void churn(int writes, const ToolNaming* tool = nullptr);
    // One change of t: ghost (and changelog) created, the ghost altered, rows copied in chunks while the
    // application writes, the atomic cut-over, the tool's tables dropped. `midCopy` runs halfway through the
    // copy, `afterSwap` right after the RENAME.
    void runChange(const ToolNaming& tool, const std::string& alter, const std::function<void()>& midCopy,
                   const std::function<void()>& afterSwap);

private:
    source::UpstreamConnection& up_;
    std::string schema_;
    std::mt19937 random_;
};

}  // namespace syncscope::test
