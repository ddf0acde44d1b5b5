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

    // Copies one row (null pointers are NULLs) into the batch.
    void add(const char* const* values, const unsigned long* lengths);
    size_t rows() const { return rows_; }
    // What the batch takes on the wire, about.
    size_t wireBytes() const { return wireBytes_; }
    // Sends the batch and empties it; returns the rows the target took.
    uint64_t execute();

private:
    TargetSession& session_;
    std::string sql_;
    std::vector<bool> binary_;
    st_mysql_stmt* statement_ = nullptr;
    std::string arena_;                   // every value of the batch, one after another
    std::vector<size_t> offsets_;         // row-major: rows_ x columns, into arena_
    std::vector<unsigned long> lengths_;  // row-major
    std::vector<char> nulls_;             // row-major
    // Column-major copies built at execute (column-wise binding wants one array per column).
    std::vector<const char*> boundValues_;
    std::vector<unsigned long> boundLengths_;
    std::vector<char> boundIndicators_;
    size_t rows_ = 0;
    size_t wireBytes_ = 0;
};

}  // namespace syncscope::load
