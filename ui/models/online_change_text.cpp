#include "ui/models/online_change_text.h"

#include <QCoreApplication>
#include <QLocale>

namespace syncscope::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("OnlineChangeText", text);
}

}  // namespace

QString shortToolName(const task::OnlineChangeView& change) {
    if (change.tool == "pt-online-schema-change") {
        return QStringLiteral("pt-osc");
    }
    if (change.tool == "gh-ost") {
        return QStringLiteral("gh-ost");
    }
    return tr("custom tool");
}

QString onlineChangeSummary(const task::OnlineChangeView& change) {
    const QString tool = shortToolName(change) + QLatin1Char(' ') + QString::fromStdString(change.shadow.table);
    if (change.ddls.empty()) {
        return tr("%1: created, no DDL yet").arg(tool);
    }
    return tr("%1: %2 rows copied, waiting for the swap").arg(tool, QLocale().toString(qulonglong(change.rowsCopied)));
}

QString onlineChangeDetails(const task::OnlineChangeView& change) {
    QString text = tr("Online schema change of %1 by %2: shadow table %3 (never created downstream, its rows "
                      "never applied)")
                       .arg(QString::fromStdString(change.real.quoted()), QString::fromStdString(change.tool),
                            QString::fromStdString(change.shadow.quoted()));
    if (!change.since.empty()) {
        text += tr("\nsince %1").arg(QString::fromStdString(change.since));
    }
    text += tr("\n%1 rows of its copy read in this session").arg(QLocale().toString(qulonglong(change.rowsCopied)));
    if (change.ddls.empty()) {
        return text + tr("\nNo DDL recorded yet");
    }
    text += tr("\nRecorded, to run on %1 when the tool swaps the shadow in:")
                .arg(QString::fromStdString(change.real.quoted()));
    for (const std::string& ddl : change.ddls) {
        text += QStringLiteral("\n  ") + QString::fromStdString(ddl);
    }
    return text;
}

}  // namespace syncscope::ui
