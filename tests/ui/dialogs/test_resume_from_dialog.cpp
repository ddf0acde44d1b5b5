// Resume from...: the undo of the last resume-from is one click away (issue 10 item 9): the dialog
// offers the global point the last resume-from replaced, by GTID when the task uses GTIDs, and shows
// nothing of the kind when no resume-from happened.
#include <QtTest>

#include <QPushButton>

#include "tests/support/test_env.h"
#include "ui/dialogs/resume_from_dialog.h"

using namespace syncscope;

namespace {

std::shared_ptr<task::StatusSnapshot> snapshotAt(const std::string& previousGtid) {
    auto snapshot = std::make_shared<task::StatusSnapshot>();
    snapshot->taskName = "orders";
    snapshot->stage = task::Stage::Paused;
    snapshot->globalPersisted = task::PointView{"mariadb-bin.000007", 4, "", {}};
    snapshot->upstream = task::PointView{"mariadb-bin.000009", 2200, "", {}};
    snapshot->globalBeforeResumeFrom = task::PointView{"mariadb-bin.000003", 1234, previousGtid, {}};
    return snapshot;
}

}  // namespace

class ResumeFromDialogTest : public QObject {
    Q_OBJECT

private slots:
    void undoChoosesThePointTheLastResumeFromReplaced_data() {
        QTest::addColumn<QString>("gtid");
        QTest::addColumn<QString>("expected");
        QTest::addRow("by position") << ""
                                     << "mariadb-bin.000003:1234";
        QTest::addRow("by GTID in GTID mode") << "0-1-42"
                                              << "0-1-42";
    }
    void undoChoosesThePointTheLastResumeFromReplaced() {
        QFETCH(QString, gtid);
        QFETCH(QString, expected);
        ui::ResumeFromDialog dialog(snapshotAt(gtid.toStdString()));
        auto* undo = dialog.findChild<QPushButton*>(QStringLiteral("undoResumeFrom"));
        QVERIFY(undo != nullptr);
        QVERIFY2(undo->text().contains(QStringLiteral("mariadb-bin.000003")), qPrintable(undo->text()));
        undo->click();
        QVERIFY2(dialog.previewText().contains(expected), qPrintable(dialog.previewText()));
        if (gtid.isEmpty()) {
            dialog.resize(720, 480);
            QVERIFY(dialog.grab().save(QString::fromStdString(test::outputDir("ui")) + "/resume_from_undo.png"));
        }
    }

    void noUndoWithoutAnEarlierResumeFrom() {
        auto snapshot = snapshotAt("");
        snapshot->globalBeforeResumeFrom = {};
        ui::ResumeFromDialog dialog(snapshot);
        QVERIFY(dialog.findChild<QPushButton*>(QStringLiteral("undoResumeFrom")) == nullptr);
    }
};

QTEST_MAIN(ResumeFromDialogTest)
#include "test_resume_from_dialog.moc"
