#include "engine/task/transaction_tracker.h"

#include <cctype>

namespace syncscope::task {

namespace {

constexpr std::string_view kHexDigits = "0123456789abcdef";

void appendHex(std::string& out, std::string_view bytes) {
    for (unsigned char c : bytes) {
        out.push_back(kHexDigits[c >> 4]);
        out.push_back(kHexDigits[c & 0x0f]);
    }
}

std::string_view trimLeft(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) {
        text.remove_prefix(1);
    }
    return text;
}

// Consumes `word` (case-insensitive) and the blanks after it.
bool takeWord(std::string_view& text, std::string_view word) {
    text = trimLeft(text);
    if (text.size() < word.size()) {
        return false;
    }
    for (size_t i = 0; i < word.size(); ++i) {
        if (std::toupper(static_cast<unsigned char>(text[i])) != word[i]) {
            return false;
        }
    }
    if (text.size() > word.size() && std::isalnum(static_cast<unsigned char>(text[word.size()])) != 0) {
        return false;
    }
    text.remove_prefix(word.size());
    text = trimLeft(text);
    return true;
}

// The xid as the servers print it, normalised: blanks outside quotes dropped, letters lower-case, a
// trailing "ONE PHASE" and anything after a comment or semicolon cut off.
std::string normalisedXid(std::string_view text) {
    constexpr std::string_view kOnePhase = "onephase";
    std::string key;
    bool inQuotes = false;
    for (char c : text) {
        if (c == '\'') {
            inQuotes = !inQuotes;
        } else if (!inQuotes && (c == '/' || c == ';' || c == '#')) {
            break;
        } else if (!inQuotes && std::isspace(static_cast<unsigned char>(c)) != 0) {
            continue;
        }
        key.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
    if (key.size() >= kOnePhase.size() &&
        key.compare(key.size() - kOnePhase.size(), kOnePhase.size(), kOnePhase) == 0) {
        key.resize(key.size() - kOnePhase.size());
    }
    return key;
}

}  // namespace

std::string xaBranchKey(const binlog::MariaDbGtidEvent& gtid) {
    std::string_view xid = gtid.xid;
    size_t gtridLength = std::min<size_t>(gtid.xidGtridLength, xid.size());
    std::string key = "x'";
    appendHex(key, xid.substr(0, gtridLength));
    key += "',x'";
    appendHex(key, xid.substr(gtridLength));
    key += "'," + std::to_string(gtid.xidFormatId);
    return key;
}

std::optional<XaOutcome> xaOutcomeOf(std::string_view query) {
    if (!takeWord(query, "XA")) {
        return std::nullopt;
    }
    XaOutcome outcome;
    if (takeWord(query, "COMMIT")) {
        outcome.commit = true;
    } else if (!takeWord(query, "ROLLBACK")) {
        return std::nullopt;
    }
    outcome.branch = normalisedXid(query);
    return outcome;
}

std::string xaStartBranch(std::string_view query) {
    if (!takeWord(query, "XA") || !(takeWord(query, "START") || takeWord(query, "BEGIN"))) {
        return {};
    }
    return normalisedXid(query);
}

void TransactionTracker::open(const binlog::BinlogPosition& start, uint32_t timestamp, GroupKind kind) {
    group_ = OpenGroup{};
    group_->seq = ++seq_;
    group_->start = start;
    group_->timestamp = timestamp;
    group_->kind = kind;
    mariaDbGtid_.reset();
    mySqlGtid_.reset();
}

void TransactionTracker::onMariaDbGtid(const binlog::MariaDbGtidEvent& gtid, const binlog::BinlogPosition& start,
                                       uint32_t timestamp) {
    GroupKind kind = GroupKind::Plain;
    if ((gtid.flags & binlog::MariaDbGtidEvent::kPreparedXa) != 0) {
        kind = GroupKind::XaPrepare;
    } else if ((gtid.flags & binlog::MariaDbGtidEvent::kCompletedXa) != 0) {
        kind = GroupKind::XaOutcome;
    } else if ((gtid.flags & binlog::MariaDbGtidEvent::kStandalone) != 0) {
        kind = GroupKind::Standalone;
    }
    open(start, timestamp, kind);
    mariaDbGtid_ = binlog::Gtid{gtid.domainId, gtid.serverId, gtid.sequence};
    group_->gtidText = gtid.text();
    if (kind == GroupKind::XaPrepare || kind == GroupKind::XaOutcome) {
        group_->branch = xaBranchKey(gtid);
    }
}

void TransactionTracker::onMySqlGtid(const binlog::MySqlGtidEvent& gtid, const binlog::BinlogPosition& start,
                                     uint32_t timestamp) {
    open(start, timestamp, GroupKind::Plain);
    if (!gtid.anonymous) {
        mySqlGtid_ = std::make_pair(binlog::uuidText(gtid.uuid), gtid.gno);
        group_->gtidText = mySqlGtid_->first + ":" + std::to_string(gtid.gno);
    }
}

void TransactionTracker::onBegin(const binlog::BinlogPosition& start, uint32_t timestamp) {
    if (!group_) {
        open(start, timestamp, GroupKind::Plain);
    }
}

void TransactionTracker::markXaBranch(std::string branch) {
    if (group_) {
        group_->kind = GroupKind::XaPrepare;
        group_->branch = std::move(branch);
    }
}

void TransactionTracker::markCommittedInOnePhase() {
    if (group_) {
        group_->kind = GroupKind::Plain;
    }
}

bool TransactionTracker::ddlIsOwnGroup() const {
    return !group_ || group_->kind == GroupKind::Standalone;
}

void TransactionTracker::markDdlInGroup() {
    if (group_) {
        group_->hasDdl = true;
    }
}

void TransactionTracker::openForDdl(const binlog::BinlogPosition& start, uint32_t timestamp) {
    if (!group_) {
        open(start, timestamp, GroupKind::Standalone);
    }
}

OpenGroup TransactionTracker::end() {
    if (mariaDbGtid_) {
        binlog::GtidPosition* position = std::get_if<binlog::GtidPosition>(&gtids_);
        if (position == nullptr) {
            gtids_ = binlog::GtidPosition();
            position = std::get_if<binlog::GtidPosition>(&gtids_);
        }
        position->update(*mariaDbGtid_);
    } else if (mySqlGtid_) {
        binlog::GtidSet* set = std::get_if<binlog::GtidSet>(&gtids_);
        if (set == nullptr) {
            gtids_ = binlog::GtidSet();
            set = std::get_if<binlog::GtidSet>(&gtids_);
        }
        set->add(mySqlGtid_->first, static_cast<uint64_t>(mySqlGtid_->second));
    }
    OpenGroup ended = group_.value_or(OpenGroup{});
    group_.reset();
    mariaDbGtid_.reset();
    mySqlGtid_.reset();
    return ended;
}

}  // namespace syncscope::task
