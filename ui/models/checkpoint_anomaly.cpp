#include "ui/models/checkpoint_anomaly.h"

#include <QCoreApplication>
#include <QLocale>

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

CheckpointAnomaly anomalyOf(const task::TablePointView& table, const task::StatusSnapshot& snapshot) {
    if (table.aheadOfGlobal) {
        return CheckpointAnomaly::AheadOfGlobal;
    }
    const auto& persisted = table.persisted;
    if (persisted.axis && snapshot.upstream.axis && *persisted.axis > *snapshot.upstream.axis) {
        return CheckpointAnomaly::BeyondUpstream;
    }
    if (persisted.known() && !persisted.axis && !snapshot.upstreamFiles.empty()) {
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
    }
    return {};
}

}  // namespace syncscope::ui
