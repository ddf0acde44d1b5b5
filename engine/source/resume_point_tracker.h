// Follows a binlog stream event by event and remembers where the last complete transaction ended,
// as a file position and as a MariaDB GTID position, so that a reconnect resumes there and never in
// the middle of a transaction.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "engine/binlog/raw_event.h"

namespace syncscope::source {

class ResumePointTracker {
public:
    // Where the stream starts: a file position, and (when the stream is started by GTID) the
    // MariaDB GTID position "domain-server-seq,..." that the upstream resumes after.
    void start(std::string file, uint64_t position, std::string_view gtidPosition = {});

    // Feeds one event of the stream. `hasChecksum` says whether events end with a CRC32.
    void observe(const binlog::RawEvent& event, bool hasChecksum);

    // The file and offset right after the last complete transaction (or the start).
    const std::string& resumeFile() const { return resumeFile_; }
    uint64_t resumePosition() const { return resumePosition_; }
    // The GTID position of the last complete transaction per domain, "0-1-5,1-2-7"; empty when unknown.
    std::string resumeGtidPosition() const;
    // Counts the moves of the resume point (start and every complete transaction): a reader of the
    // resume point rebuilds its text only when this changed.
    uint64_t resumeMoves() const { return resumeMoves_; }

    // The file and offset after the last event seen (inside a transaction or not).
    const std::string& currentFile() const { return currentFile_; }
    uint64_t currentPosition() const { return currentPosition_; }
    bool insideTransaction() const { return insideTransaction_; }

private:
    struct Gtid {
        uint32_t domain = 0;
        uint32_t server = 0;
        uint64_t sequence = 0;
    };

    void completeTransaction();

    std::string resumeFile_;
    uint64_t resumePosition_ = 0;
    uint64_t resumeMoves_ = 0;
    std::string currentFile_;
    uint64_t currentPosition_ = 0;
    std::map<uint32_t, Gtid> gtidState_;  // by domain
    std::optional<Gtid> pendingGtid_;
    bool insideTransaction_ = false;
    bool standalone_ = false;  // the open group is one statement with no COMMIT (DDL)
};

}  // namespace syncscope::source
