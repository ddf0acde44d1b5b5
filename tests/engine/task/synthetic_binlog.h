// A binlog made by hand for driving the sync pipeline without an upstream server: MariaDB-style
// transactions (GTID, TABLE_MAP, WRITE_ROWS_V1, XID) on one table `seam`.`t` (id INT NOT NULL, v INT) and
// DDL groups (GTID, QUERY), served by a BinlogStream that starts where the pipeline asks, as a binlog
// dump does.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "engine/binlog/event.h"
#include "engine/task/binlog_stream.h"
#include "tests/engine/binlog/events/event_bytes.h"

namespace syncscope::test {

inline constexpr const char* kSyntheticFile = "seam-bin.000001";
inline constexpr uint64_t kSyntheticTableId = 71;

class SyntheticBinlog {
public:
    struct Transaction {
        uint64_t start = 0;  // position of its GTID event
        uint64_t end = 0;    // end position of its XID event
        std::vector<int32_t> ids;
    };

    SyntheticBinlog() {
        std::string fde = makeFormatDescription("10.11.19-MariaDB-log", false);
        add(fde);
    }

    // One transaction inserting (id, id * 10) for every id, in one rows event, into `seam`.`table` (the
    // same two columns as t).
    const Transaction& insertTransaction(const std::vector<int32_t>& ids, const std::string& table = "t") {
        Transaction t;
        t.start = end_;
        t.ids = ids;
        ++sequence_;
        Bytes gtid;
        gtid.u64(sequence_).u32(0).u8(binlog::MariaDbGtidEvent::kTransactional);
        add(makeEvent(binlog::EventType::MariaDbGtid, gtid, false, end_));
        Bytes map;
        const uint64_t tableId = table == "t" ? kSyntheticTableId : kSyntheticTableId + 1 + table.size();
        map.u48(tableId).u16(1).u8(4).str("seam").u8(0).u8(static_cast<uint8_t>(table.size())).str(table).u8(0);
        map.packed(2).u8(3).u8(3).packedStr("").u8(0x02);  // INT, INT; v nullable
        add(makeEvent(binlog::EventType::TableMap, map, false, end_));
        Bytes rows;
        rows.u48(tableId).u16(1).packed(2).u8(0x03);
        for (int32_t id : ids) {
            rows.u8(0x00).u32(static_cast<uint32_t>(id)).u32(static_cast<uint32_t>(id * 10));
        }
        add(makeEvent(binlog::EventType::WriteRowsV1, rows, false, end_));
        add(makeEvent(binlog::EventType::Xid, Bytes().u64(sequence_), false, end_));
        t.end = end_;
        transactions_.push_back(t);
        return transactions_.back();
    }

    // A DDL in a group of its own (as MariaDB logs one), on the database `seam`; returns its GTID event's
    // position.
    uint64_t ddl(const std::string& sql) {
        uint64_t start = end_;
        ++sequence_;
        Bytes gtid;
        gtid.u64(sequence_).u32(0).u8(binlog::MariaDbGtidEvent::kStandalone);
        add(makeEvent(binlog::EventType::MariaDbGtid, gtid, false, end_));
        const std::string database = "seam";
        Bytes query;
        query.u32(1).u32(0).u8(static_cast<uint8_t>(database.size())).u16(0).u16(0);
        query.str(database).u8(0).str(sql);
        add(makeEvent(binlog::EventType::Query, query, false, end_));
        return start;
    }

    const std::vector<Transaction>& transactions() const { return transactions_; }
    uint64_t end() const { return end_; }

    // The transaction that holds `id`.
    const Transaction* transactionOf(int32_t id) const {
        for (const auto& t : transactions_) {
            for (int32_t own : t.ids) {
                if (own == id) {
                    return &t;
                }
            }
        }
        return nullptr;
    }

    struct Entry {
        uint64_t pos;
        std::string bytes;
    };
    const std::vector<Entry>& events() const { return events_; }

private:
    void add(const std::string& event) {
        events_.push_back({end_, event});
        end_ += event.size();
    }

    std::vector<Entry> events_;
    std::vector<Transaction> transactions_;
    uint64_t end_ = 4;  // after the magic number
    uint64_t sequence_ = 0;
};

// Serves a SyntheticBinlog from a position: the format description first, then the events at or after
// it, each after `pace` (an upstream that writes while the task reads); idle (nullopt after a short pause)
// at the end.
class SyntheticStream : public task::BinlogStream {
public:
    SyntheticStream(const SyntheticBinlog& binlog, uint64_t from, std::chrono::microseconds pace = {})
        : binlog_(binlog), from_(from), pace_(pace) {}

    std::optional<binlog::RawEvent> next() override {
        const auto& events = binlog_.events();
        while (next_ < events.size() && next_ != 0 && events[next_].pos < from_) {
            ++next_;
        }
        if (cancelled_ || next_ >= events.size()) {
            std::this_thread::sleep_for(kIdlePause);
            return std::nullopt;
        }
        if (pace_.count() > 0) {
            std::this_thread::sleep_for(pace_);
        }
        const auto& entry = events[next_++];
        return binlog::RawEvent{entry.bytes, kSyntheticFile, entry.pos};
    }
    void cancel() override { cancelled_ = true; }

private:
    static constexpr std::chrono::milliseconds kIdlePause{5};
    const SyntheticBinlog& binlog_;
    uint64_t from_;
    std::chrono::microseconds pace_;
    size_t next_ = 0;
    std::atomic<bool> cancelled_{false};
};

}  // namespace syncscope::test
