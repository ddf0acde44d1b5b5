#include "engine/source/resume_point_tracker.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "engine/binlog/decode_error.h"
#include "engine/source/raw_event_fields.h"

namespace syncscope::source {

namespace {

// MariaDB GTID event body: sequence number (8), domain id (4), flags (1).
constexpr size_t kGtidSequenceOffset = binlog::kEventHeaderSize;
constexpr size_t kGtidDomainOffset = kGtidSequenceOffset + 8;
constexpr size_t kGtidFlagsOffset = kGtidDomainOffset + 4;
constexpr uint8_t kGtidStandaloneFlag = 0x01;  // FL_STANDALONE

uint64_t littleEndian(std::string_view bytes, size_t offset, size_t width) {
    uint64_t value = 0;
    for (size_t i = 0; i < width; ++i) {
        value |= static_cast<uint64_t>(static_cast<uint8_t>(bytes[offset + i])) << (8 * i);
    }
    return value;
}

// Case-insensitive "does the statement start with this keyword".
bool startsWithKeyword(std::string_view query, std::string_view keyword) {
    size_t first = query.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos || query.size() - first < keyword.size()) {
        return false;
    }
    for (size_t i = 0; i < keyword.size(); ++i) {
        if (std::toupper(static_cast<unsigned char>(query[first + i])) != keyword[i]) {
            return false;
        }
    }
    size_t after = first + keyword.size();
    return after == query.size() || !std::isalnum(static_cast<unsigned char>(query[after]));
}

}  // namespace

void ResumePointTracker::start(std::string file, uint64_t position, std::string_view gtidPosition) {
    resumeFile_ = file;
    currentFile_ = std::move(file);
    resumePosition_ = position;
    currentPosition_ = position;
    ++resumeMoves_;
    gtidState_.clear();
    pendingGtid_.reset();
    insideTransaction_ = false;
    standalone_ = false;
    // "0-1-5,1-2-7": already validated by the caller; anything unparsable is simply not tracked.
    size_t begin = 0;
    while (begin < gtidPosition.size()) {
        size_t end = gtidPosition.find(',', begin);
        std::string_view item = gtidPosition.substr(begin, end == std::string_view::npos ? end : end - begin);
        Gtid gtid;
        size_t dash1 = item.find('-');
        size_t dash2 = dash1 == std::string_view::npos ? dash1 : item.find('-', dash1 + 1);
        if (dash2 != std::string_view::npos) {
            std::from_chars(item.data(), item.data() + dash1, gtid.domain);
            std::from_chars(item.data() + dash1 + 1, item.data() + dash2, gtid.server);
            std::from_chars(item.data() + dash2 + 1, item.data() + item.size(), gtid.sequence);
            gtidState_[gtid.domain] = gtid;
        }
        if (end == std::string_view::npos) {
            break;
        }
        begin = end + 1;
    }
}

std::string ResumePointTracker::resumeGtidPosition() const {
    std::string text;
    for (const auto& [domain, gtid] : gtidState_) {
        if (!text.empty()) {
            text += ',';
        }
        text += std::to_string(domain) + "-" + std::to_string(gtid.server) + "-" + std::to_string(gtid.sequence);
    }
    return text;
}

void ResumePointTracker::completeTransaction() {
    if (pendingGtid_) {
        gtidState_[pendingGtid_->domain] = *pendingGtid_;
        pendingGtid_.reset();
    }
    insideTransaction_ = false;
    standalone_ = false;
    resumeFile_ = currentFile_;
    resumePosition_ = currentPosition_;
    ++resumeMoves_;
}

void ResumePointTracker::observe(const binlog::RawEvent& event, bool hasChecksum) {
    if (event.bytes.size() < binlog::kEventHeaderSize) {
        return;
    }
    RawEventHeader header = readRawEventHeader(event.bytes);
    if (header.type == kHeartbeatEventType || header.type == kHeartbeatV2EventType) {
        return;
    }
    if (header.type == kRotateEventType) {
        RotateTarget target = readRotateTarget(event.bytes, hasChecksum);
        currentFile_ = target.file;
        currentPosition_ = target.position;
        if (!insideTransaction_) {
            completeTransaction();
        }
        return;
    }
    // Artificial events (the FORMAT_DESCRIPTION a server sends first) are not in the file: log_pos 0.
    if (header.logPos != 0) {
        currentPosition_ = header.logPos;
    }
    if (header.type == kMariaDbGtidEventType) {
        if (event.bytes.size() > kGtidFlagsOffset) {
            Gtid gtid;
            gtid.sequence = littleEndian(event.bytes, kGtidSequenceOffset, 8);
            gtid.domain = static_cast<uint32_t>(littleEndian(event.bytes, kGtidDomainOffset, 4));
            gtid.server = header.serverId;
            pendingGtid_ = gtid;
            standalone_ = (static_cast<uint8_t>(event.bytes[kGtidFlagsOffset]) & kGtidStandaloneFlag) != 0;
            insideTransaction_ = true;
        }
        return;
    }
    if (header.type == kXidEventType) {
        completeTransaction();
        return;
    }
    if (header.type == kQueryEventType) {
        std::string_view query = readQueryText(event.bytes, hasChecksum);
        bool xa = startsWithKeyword(query, "XA");
        std::string_view xaVerb = xa ? query.substr(query.find_first_not_of(" \t\r\n") + 2) : std::string_view();
        if (startsWithKeyword(query, "BEGIN") || (xa && startsWithKeyword(xaVerb, "START"))) {
            insideTransaction_ = true;
            return;
        }
        if (xa && startsWithKeyword(xaVerb, "END")) {
            return;
        }
        // XA PREPARE, XA COMMIT and XA ROLLBACK end an event group as COMMIT does.
        if (startsWithKeyword(query, "COMMIT") || startsWithKeyword(query, "ROLLBACK") || xa) {
            completeTransaction();
            return;
        }
    }
    // A DDL after a standalone GTID, or any event between transactions (GTID lists, checkpoints).
    if (standalone_ || !insideTransaction_) {
        completeTransaction();
    }
}

}  // namespace syncscope::source
