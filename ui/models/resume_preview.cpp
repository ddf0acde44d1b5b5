#include "ui/models/resume_preview.h"

#include <QCoreApplication>
#include <QLocale>

#include "ui/models/binlog_axis.h"
#include "ui/models/checkpoint_anomaly.h"

namespace syncscope::ui {

namespace {

QString tr(const char* text, int count = -1) {
    return QCoreApplication::translate("ResumePreview", text, nullptr, count);
}

QString bytes(uint64_t count) {
    return QLocale().toString(qulonglong(count));
}

void describe(ResumePreview& preview, const task::StatusSnapshot& snapshot) {
    QStringList lines;
    const QString start =
        preview.target.gtid.empty()
            ? QString::fromStdString(preview.target.file) + QLatin1Char(':') + QString::number(preview.target.pos)
            : tr("GTID set %1").arg(QString::fromStdString(preview.target.gtid));
    lines << tr("The task resumes reading at <b>%1</b>.").arg(start.toHtmlEscaped());
    if (!preview.targetAxis) {
        lines << tr(
            "This start cannot be placed on the upstream's binlog files (a GTID set, or a file the "
            "upstream no longer lists), so the amounts below are unknown until the engine resolves it.");
    }
    if (preview.bytesAppliedAgain > 0) {
        lines << tr("<b>Applied again:</b> %1 bytes of events up to the last applied point %2. Safe mode "
                    "stays on until %3, so applying them twice leaves the same rows.")
                     .arg(bytes(preview.bytesAppliedAgain), pointText(snapshot.applied).toHtmlEscaped(),
                          pointText(snapshot.exitSafe.known() ? snapshot.exitSafe : snapshot.applied).toHtmlEscaped());
    }
    if (preview.bytesSkipped > 0) {
        lines << tr("<span style='color:#d32f2f'><b>Skipped for every table:</b> %1 bytes of events between the "
                    "last applied point %2 and the start were never applied and will not be.</span>")
                     .arg(bytes(preview.bytesSkipped), pointText(snapshot.applied).toHtmlEscaped());
    }
    if (!preview.tablesSkipping.isEmpty()) {
        lines << tr(
            "<span style='color:#d32f2f'><b>Skipped for %n table(s)</b> whose persisted point is past the "
            "start (their events up to that point count as applied):</span>",
            int(preview.tablesSkipping.size()));
        constexpr int kTablesListed = 12;
        QStringList listed = preview.tablesSkipping.mid(0, kTablesListed);
        if (preview.tablesSkipping.size() > kTablesListed) {
            listed << tr("... and %1 more").arg(preview.tablesSkipping.size() - kTablesListed);
        }
        lines << QStringLiteral("&nbsp;&nbsp;") + listed.join(QStringLiteral("<br>&nbsp;&nbsp;")).toHtmlEscaped();
    }
    if (preview.bytesAppliedAgain == 0 && preview.bytesSkipped == 0 && preview.tablesSkipping.isEmpty() &&
        preview.targetAxis) {
        lines << tr("Nothing is applied twice and nothing is skipped.");
    }
    preview.text = lines.join(QStringLiteral("<br>"));
}

}  // namespace

ResumePreview previewResume(const task::StatusSnapshot& snapshot, ResumeStart start, const QString& choice) {
    ResumePreview preview;
    const BinlogAxis axis(snapshot.upstreamFiles);
    switch (start) {
        case ResumeStart::PersistedGlobal:
            if (!snapshot.globalPersisted.known()) {
                preview.error = tr("No global checkpoint has been persisted yet.");
                return preview;
            }
            preview.target = {snapshot.globalPersisted.file, snapshot.globalPersisted.pos,
                              snapshot.globalPersisted.gtid};
            preview.targetAxis = snapshot.globalPersisted.axis;
            break;
        case ResumeStart::TablePoint: {
            const task::TablePointView* chosen = nullptr;
            for (const auto& table : snapshot.tables) {
                if (QString::fromStdString(table.schema + "." + table.table) == choice) {
                    chosen = &table;
                    break;
                }
            }
            if (!chosen) {
                preview.error = tr("Table %1 is not among the task's tables.").arg(choice);
                return preview;
            }
            if (!chosen->persisted.known()) {
                preview.error = tr("Table %1 has no persisted checkpoint.").arg(choice);
                return preview;
            }
            preview.target = {chosen->persisted.file, chosen->persisted.pos, chosen->persisted.gtid};
            preview.targetAxis = chosen->persisted.axis;
            break;
        }
        case ResumeStart::FilePosition: {
            const auto parsed = BinlogAxis::parseFilePos(choice.trimmed().toStdString());
            if (!parsed) {
                preview.error =
                    tr("'%1' is not a binlog position; write it as file:pos, e.g. mysql-bin.000003:4").arg(choice);
                return preview;
            }
            preview.target = {parsed->first, parsed->second, {}};
            preview.targetAxis = axis.axisOf(parsed->first, parsed->second);
            if (!axis.empty() && !preview.targetAxis) {
                preview.error =
                    tr("The upstream has no binlog file %1 (SHOW BINARY LOGS lists %2 to %3).")
                        .arg(QString::fromStdString(parsed->first), QString::fromStdString(axis.files().front().name),
                             QString::fromStdString(axis.files().back().name));
                return preview;
            }
            break;
        }
        case ResumeStart::GtidSet:
            if (choice.trimmed().isEmpty()) {
                preview.error = tr("Write the GTID set to start after, e.g. 0-1-1234.");
                return preview;
            }
            preview.target.gtid = choice.trimmed().toStdString();
            break;
    }
    preview.valid = true;
    const auto& global = snapshot.globalPersisted;
    preview.movesPosition =
        start != ResumeStart::PersistedGlobal &&
        !(preview.target.file == global.file && preview.target.pos == global.pos && preview.target.gtid == global.gtid);
    if (preview.targetAxis) {
        const uint64_t target = *preview.targetAxis;
        const auto applied = snapshot.applied.axis ? snapshot.applied.axis : global.axis;
        if (applied && *applied > target) {
            preview.bytesAppliedAgain = *applied - target;
        } else if (applied && target > *applied) {
            preview.bytesSkipped = target - *applied;
        }
        for (const auto& table : snapshot.tables) {
            if (table.persisted.axis && *table.persisted.axis > target) {
                preview.tablesSkipping << QString::fromStdString(table.schema + "." + table.table) + tr(" up to ") +
                                              pointText(table.persisted);
            }
        }
    }
    describe(preview, snapshot);
    return preview;
}

}  // namespace syncscope::ui
