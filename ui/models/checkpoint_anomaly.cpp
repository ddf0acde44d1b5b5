#include "ui/models/checkpoint_anomaly.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>
#include <optional>

#include "engine/binlog/binlog_position.h"
#include "ui/models/shard_lock_hold.h"
#include "ui/models/shard_lock_text.h"

namespace syncscope::ui {

namespace {
QString tr(const char* text) {
    return QCoreApplication::translate("CheckpointAnomaly", text);
}
}  // namespace

QString pointText(const task::PointView& point) {
    return QString::fromStdString(point.text());
}

QString qualifiedName(const task::TablePointView& table) {
    return QStringLiteral("`%1`.`%2`").arg(QString::fromStdString(table.schema), QString::fromStdString(table.table));
}

namespace {

std::optional<binlog::BinlogPosition> positionOf(const task::PointView& point) {
    if (!point.known() || !binlog::BinlogPosition::isBinlogFileName(point.file)) {
        return std::nullopt;
    }
    return binlog::BinlogPosition(point.file, point.pos);
}

// Where the upstream is at least, in one consistent view: it has every event that was read from it,
// whatever an older poll of its position said (issue 10.13: a poll trailing the read point flagged
// every live table).
std::optional<binlog::BinlogPosition> upstreamAtLeast(const task::StatusSnapshot& snapshot) {
    auto upstream = positionOf(snapshot.upstream);
    auto read = positionOf(snapshot.read);
    if (upstream && read) {
        return std::max(*upstream, *read);
    }
    return upstream;
}

// Compared as positions, not on the axis: an axis built from a file list polled before a rotation
// places the end of the old file past the start of the new one.
bool beyondUpstream(const task::PointView& point, const task::StatusSnapshot& snapshot) {
    if (point.axis && snapshot.upstream.axis && *point.axis <= *snapshot.upstream.axis) {
        return false;  // the common case, without parsing a file name per table and tick
    }
    auto position = positionOf(point);
    auto upstream = upstreamAtLeast(snapshot);
    return position && upstream && *position > *upstream;
}

// Older than the oldest file the upstream lists (or a file it does not list among older ones), not merely
// off the axis: a point in a file written after the list was polled is not purged.
bool inPurgedFile(const task::PointView& point, const task::StatusSnapshot& snapshot) {
    if (point.axis || !point.known() || snapshot.upstreamFiles.empty()) {
        return false;
    }
    auto position = positionOf(point);
    if (!position) {
        return true;  // not a binlog file name the upstream could have
    }
    uint64_t newestListed = 0;
    for (const auto& file : snapshot.upstreamFiles) {
        if (binlog::BinlogPosition::isBinlogFileName(file.name)) {
            newestListed = std::max(newestListed, binlog::BinlogPosition::fileNumberOf(file.name));
        }
    }
    return position->fileNumber() <= newestListed;
}

}  // namespace

bool isAnomaly(CheckpointAnomaly anomaly) {
    return anomaly != CheckpointAnomaly::None && anomaly != CheckpointAnomaly::AheadForShardLock;
}

CheckpointAnomaly anomalyOf(const task::TablePointView& table, const task::StatusSnapshot& snapshot) {
    if (table.aheadOfGlobal) {
        return lockHoldingTable(table, snapshot) ? CheckpointAnomaly::AheadForShardLock
                                                 : CheckpointAnomaly::AheadOfGlobal;
    }
    if (beyondUpstream(table.persisted, snapshot)) {
        return CheckpointAnomaly::BeyondUpstream;
    }
    if (inPurgedFile(table.persisted, snapshot)) {
        return CheckpointAnomaly::FilePurged;
    }
    return CheckpointAnomaly::None;
}

QString anomalyLabel(CheckpointAnomaly anomaly) {
    switch (anomaly) {
        case CheckpointAnomaly::None:
            return {};
        case CheckpointAnomaly::AheadOfGlobal:
            return tr("ahead of global");
        case CheckpointAnomaly::BeyondUpstream:
            return tr("beyond upstream");
        case CheckpointAnomaly::FilePurged:
            return tr("file purged");
        case CheckpointAnomaly::AheadForShardLock:
            return tr("ahead: shard lock");
    }
    return {};
}

QString anomalyExplanation(const task::TablePointView& table, const task::StatusSnapshot& snapshot) {
    const QString name = qualifiedName(table);
    const QString tablePoint = pointText(table.persisted);
    const QString globalPoint = pointText(snapshot.globalPersisted);
    const QLocale locale;
    switch (anomalyOf(table, snapshot)) {
        case CheckpointAnomaly::None:
            return tr("%1: persisted at %2, not ahead of the persisted global point %3.")
                .arg(name, tablePoint, globalPoint);
        case CheckpointAnomaly::AheadOfGlobal: {
            QString events =
                table.eventsFromGlobal > 0
                    ? tr("%1 event(s) of this table").arg(locale.toString(qulonglong(table.eventsFromGlobal)))
                    : tr("every event of this table");
            return tr("<b>%1 is ahead of the global checkpoint.</b><br>"
                      "Its persisted point %2 is %3 bytes past the persisted global point %4.<br>"
                      "A resume starts from %4 and <b>skips %5 between %4 and %2</b>, because they look "
                      "already applied.<br>If any of them did not commit downstream, those rows are lost "
                      "without an error (the DM checkpoint bug, tiflow 5279). Verify the rows, or resume from "
                      "an earlier point with safe mode.")
                .arg(name, tablePoint, locale.toString(qlonglong(table.bytesFromGlobal)), globalPoint, events);
        }
        case CheckpointAnomaly::BeyondUpstream:
            return tr("<b>%1 is beyond the upstream's position.</b><br>Its persisted point %2 is past the "
                      "upstream's current position %3. The checkpoint may come from another server or a "
                      "reset binlog; a resume from it would skip events that do not exist yet.")
                .arg(name, tablePoint, pointText(snapshot.upstream));
        case CheckpointAnomaly::FilePurged:
            return tr("<b>%1 points into a purged binlog file.</b><br>Its persisted point %2 is in a file "
                      "the upstream no longer has; the events between it and the oldest file cannot be read "
                      "again.")
                .arg(name, tablePoint);
        case CheckpointAnomaly::AheadForShardLock: {
            bool known = false;
            const std::string source = sourceOfTable(table, snapshot, &known);
            const task::ShardLockStatus& lock = *lockHoldingTable(table, snapshot);
            // The whole of a task with several sources has no global point of its own: each source's is held.
            const QString held = snapshot.globalPersisted.known() ? globalPoint : tr("its held point");
            return tr("<b>%1 is %2.</b><br>Expected in shard-mode: the source's global point stays at %3, before "
                      "the DDL, until every shard table of %4 has read it, while the source's other tables go on "
                      "applying (this one to %5). A restart reads again from %3 and each table point passes over "
                      "what was applied.")
                .arg(name, shardLockHoldText(lock, source).toHtmlEscaped(), held,
                     QString::fromStdString(lock.target.text()), tablePoint);
        }
    }
    return {};
}

}  // namespace syncscope::ui
