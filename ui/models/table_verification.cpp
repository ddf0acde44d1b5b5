#include "ui/models/table_verification.h"

#include <QCoreApplication>

namespace syncscope::ui {

QString TableVerification::text() const {
    const QString at = verifiedAt.known() ? QCoreApplication::translate("TableVerification", "verified at %1")
                                                .arg(QString::fromStdString(verifiedAt.text()))
                                          : QCoreApplication::translate("TableVerification", "verified");
    switch (outcome) {
        case verify::TableOutcome::Equal:
            return QCoreApplication::translate("TableVerification", "%1, equal").arg(at);
        case verify::TableOutcome::Different:
            return QCoreApplication::translate("TableVerification", "%1, %n difference(s)", nullptr, int(differences))
                .arg(at);
        case verify::TableOutcome::Failed:
            return QCoreApplication::translate("TableVerification", "failed: %1").arg(problem);
        case verify::TableOutcome::Cancelled:
            return QCoreApplication::translate("TableVerification", "cancelled (%n difference(s) so far)", nullptr,
                                               int(differences));
    }
    return {};
}

TableVerifications tableVerificationsFrom(const std::vector<verify::TableVerifyResult>& tables) {
    TableVerifications verifications;
    for (const auto& table : tables) {
        TableVerification verification;
        verification.outcome = table.outcome;
        verification.verifiedAt.file = table.verifiedAt.position().file();
        verification.verifiedAt.pos = table.verifiedAt.position().offset();
        verification.verifiedAt.gtid = table.verifiedAt.gtidText();
        verification.differences = table.differences.size();
        verification.problem = QString::fromStdString(table.problem);
        verifications.insert(QString::fromStdString(table.upstream.text()), verification);
    }
    return verifications;
}

}  // namespace syncscope::ui
