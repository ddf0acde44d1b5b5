// One chunk's rows sent to the target as a prepared single-row INSERT executed for a whole batch at
// once (MariaDB's array binding, COM_STMT_BULK_EXECUTE): the values travel as they were read, with no
// SQL literal to build on this side or to lex and parse on the target (its largest cost with multi-row
// INSERTs). Text values go as strings in the connection's character set, binary ones as bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

struct st_mysql_stmt;

namespace syncscope::load {

class RowBatch;
class TargetSession;

class BulkInsert {
public:
    // `sql`: "INSERT INTO t (c1, c2) VALUES (?, ?)" (or REPLACE / INSERT IGNORE); `binary[i]`: column i
    // holds bytes, not text. Throws apply::DownstreamError when the target cannot prepare it or does not
    // take bulk execution (a MySQL server).
    BulkInsert(TargetSession& session, const std::string& sql, std::vector<bool> binary);
    ~BulkInsert();
    BulkInsert(const BulkInsert&) = delete;
    BulkInsert& operator=(const BulkInsert&) = delete;

    // Whether the target takes bulk execution (MariaDB 10.2 and later).
    static bool supported(TargetSession& session);

    // Sends `batch` (its columns in the statement's order); returns the rows the target took. The batch is
    // left as it was: the caller empties it.
    uint64_t execute(const RowBatch& batch);

private:
    TargetSession& session_;
    std::string sql_;
    std::vector<bool> binary_;
    st_mysql_stmt* statement_ = nullptr;
};

}  // namespace syncscope::load
