// The upstream's part of the precheck: the binary log settings the engine needs, a server id, GTID
// settings that agree with enable-gtid, the replication grants, the start position still on the
// server, and binlog retention long enough for the lag the task may build up.
#pragma once

#include <chrono>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "engine/precheck/finding.h"

namespace syncscope::precheck {

class SqlSession;

struct UpstreamExpectations {
    bool enableGtid = false;
    std::chrono::seconds expectedLag{0};  // the longest the task may fall behind (or stay stopped)
};

// Where a start would begin: the persisted global point, else the task's meta.
struct StartPoint {
    std::string origin;  // "the persisted checkpoint" or "the task's meta"
    std::string binlogName;
    uint64_t binlogPos = 0;
};

std::vector<Finding> checkUpstreamSettings(SqlSession& upstream, const UpstreamExpectations& expectations);
std::vector<Finding> checkUpstreamGrants(SqlSession& upstream, const std::set<std::string>& replicatedSchemas);
std::vector<Finding> checkStartPoint(SqlSession& upstream, const StartPoint& start);

// The retention that covers `expectedLag` twice over, and at least a week.
std::chrono::seconds recommendedRetention(std::chrono::seconds expectedLag);

// The numeric suffix of a binlog file name ("mariadb-bin.000012" -> 12); -1 when it has none.
long long binlogFileNumber(const std::string& name);

}  // namespace syncscope::precheck
