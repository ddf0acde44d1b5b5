// The failed event as the front ends show it (StatusSnapshot::FailedEvent), made from a worker's
// ApplyFailure or from a DDL that failed downstream.
#pragma once

#include <string>

#include "engine/apply/apply_failure.h"
#include "engine/binlog/location.h"
#include "engine/binlog/query_event.h"
#include "engine/task/status_snapshot.h"

namespace syncscope::task {

FailedEvent failedEventOf(const apply::ApplyFailure& failure);

FailedEvent ddlFailedEvent(const binlog::Location& at, const binlog::QueryEvent& query, const std::string& sql,
                           int code, const std::string& message);

}  // namespace syncscope::task
