// Follows the binlog's event groups (transactions): where one begins, what ends it, and the GTID state
// after the last complete group (docs/design.md invariant 9). A DDL inside a group (MariaDB logs CREATE
// TABLE ... SELECT as GTID, the CREATE, rows, XID) does not end it; an XA branch's group ends at its XA
// PREPARE and the branch's outcome comes in a later group of its own (XA COMMIT or XA ROLLBACK).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "engine/binlog/binlog_position.h"
#include "engine/binlog/event.h"
#include "engine/binlog/location.h"

namespace syncscope::task {

// How a group ends, and so what its rows mean.
enum class GroupKind {
    Plain,       // BEGIN ... COMMIT/XID (also a one-phase XA COMMIT, logged like any transaction)
    Standalone,  // one statement (a DDL) that ends the group by itself
    XaPrepare,   // an XA branch's rows, ending at XA PREPARE: applied only if a later XA COMMIT says so
    XaOutcome,   // XA COMMIT or XA ROLLBACK of a branch prepared earlier
};

// The outcome statement of an XA branch, read from "XA COMMIT X'..',X'..',1" or "XA ROLLBACK ...".
struct XaOutcome {
    bool commit = false;
    std::string branch;  // the branch's key (see xaBranchKey)
};

// A branch's key as MariaDB and MySQL print an xid in the binlog: X'<gtrid hex>',X'<bqual hex>',<format id>.
std::string xaBranchKey(const binlog::MariaDbGtidEvent& gtid);
// XA COMMIT / XA ROLLBACK with its branch, or nullopt for any other XA statement (XA START, XA END).
std::optional<XaOutcome> xaOutcomeOf(std::string_view query);
// The branch named by "XA START X'..',X'..',1" (MySQL logs it as a statement), or empty.
std::string xaStartBranch(std::string_view query);

struct OpenGroup {
    uint64_t seq = 0;  // the syncer's number of the group, increasing
    binlog::BinlogPosition start;
    uint32_t timestamp = 0;  // upstream time of the group's first event
    GroupKind kind = GroupKind::Plain;
    std::string branch;    // XA groups: the branch key
    bool hasDdl = false;   // a DDL ran inside the group
    std::string gtidText;  // the group's own GTID ("0-1-5" or "uuid:7"), empty without GTIDs
};

class TransactionTracker {
public:
    // Starts from the GTID state of the start point.
    explicit TransactionTracker(binlog::GtidState gtids) : gtids_(std::move(gtids)) {}

    // A GTID event opens a group (the caller ends a group still open first: see SyncPipeline).
    void onMariaDbGtid(const binlog::MariaDbGtidEvent& gtid, const binlog::BinlogPosition& start, uint32_t timestamp);
    void onMySqlGtid(const binlog::MySqlGtidEvent& gtid, const binlog::BinlogPosition& start, uint32_t timestamp);
    // BEGIN (or XA START on MySQL) without a GTID before it opens a group; inside one it changes nothing.
    void onBegin(const binlog::BinlogPosition& start, uint32_t timestamp);
    void markXaBranch(std::string branch);
    // MySQL's XA COMMIT ... ONE PHASE: the branch's group ends at an XA_PREPARE event, committed.
    void markCommittedInOnePhase();

    // Whether a DDL arriving now is a group of its own (standalone, or no group open) rather than a
    // statement inside the open group.
    bool ddlIsOwnGroup() const;
    // A DDL inside the open group ran: the group still ends at its terminator.
    void markDdlInGroup();
    // A DDL that is its own group: opens one when none is open (no GTID before it).
    void openForDdl(const binlog::BinlogPosition& start, uint32_t timestamp);

    // The open group ends; the GTID state now includes it. Returns the group that ended.
    OpenGroup end();

    bool inGroup() const { return group_.has_value(); }
    const OpenGroup* group() const { return group_ ? &*group_ : nullptr; }
    uint64_t lastSeq() const { return seq_; }
    const binlog::GtidState& gtids() const { return gtids_; }

private:
    void open(const binlog::BinlogPosition& start, uint32_t timestamp, GroupKind kind);

    binlog::GtidState gtids_;  // after the last complete group
    std::optional<OpenGroup> group_;
    std::optional<binlog::Gtid> mariaDbGtid_;                   // of the open group
    std::optional<std::pair<std::string, int64_t>> mySqlGtid_;  // of the open group
    uint64_t seq_ = 0;
};

}  // namespace syncscope::task
