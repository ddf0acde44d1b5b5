// One load worker's session on the target database, through MariaDB Connector/C: multi-row INSERTs,
// LOAD DATA LOCAL INFILE fed from memory by a pull callback (no file on disk), and the chunk's
// transaction. Errors are apply::DownstreamError with the server's code, naming the target.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "engine/apply/downstream_connection.h"
#include "engine/common/server_settings.h"

struct st_mysql;

namespace syncscope::load {

// Fills `buffer` with up to `capacity` bytes of the LOAD DATA stream; returns the bytes written, 0 at
// the end of the data. Throwing ends the statement with an error; the exception is rethrown by loadData.
using LoadDataFeed = std::function<size_t(char* buffer, size_t capacity)>;

// What the server reported for one LOAD DATA statement ("Records: 3 Deleted: 0 Skipped: 0 Warnings: 0").
struct LoadDataOutcome {
    uint64_t records = 0;
    uint64_t skipped = 0;  // rows LOAD DATA LOCAL skipped as duplicates (it ignores them with a warning)
    uint64_t warnings = 0;
};

class TargetSession {
public:
    // Connects with LOAD DATA LOCAL allowed and sets the load's session variables; throws DownstreamError.
    explicit TargetSession(const ServerSettings& settings);
    ~TargetSession();
    TargetSession(const TargetSession&) = delete;
    TargetSession& operator=(const TargetSession&) = delete;

    // Runs one statement; returns its affected rows.
    uint64_t execute(const std::string& sql);
    std::string queryValue(const std::string& sql);
    LoadDataOutcome loadData(const std::string& sql, const LoadDataFeed& feed);

    void begin();
    void commit();
    // Never throws: a lost connection took the transaction with it.
    void rollback() noexcept;

    const ServerSettings& settings() const { return settings_; }
    // For prepared statements on this session (bulk_insert.h).
    st_mysql* handle() const { return mysql_.get(); }

private:
    [[noreturn]] void fail(const std::string& what, const std::string& sql) const;

    ServerSettings settings_;
    apply::NativeConnection mysql_;
};

}  // namespace syncscope::load
