#include "ui/dialogs/precheck_dialog.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QDir>
#include <QHeaderView>
#include <QLabel>
#include <QMainWindow>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QtConcurrent>

#include "engine/common/state_directory.h"
#include "engine/precheck/fix_applier.h"
#include "engine/precheck/precheck.h"
#include "ui/models/precheck_finding_model.h"

namespace syncscope::ui {

namespace {

constexpr int kDialogWidth = 1000;
constexpr int kDialogHeight = 640;
constexpr int kSeverityColumnWidth = 70;
constexpr int kCheckColumnWidth = 210;
constexpr int kSubjectColumnWidth = 240;

QString escaped(const std::string& text) {
    return QString::fromStdString(text).toHtmlEscaped();
}

// "1 error", "3 errors".
QString counted(size_t count, const char* one, const char* many) {
    return QStringLiteral("%1 %2").arg(count).arg(QString::fromLatin1(count == 1 ? one : many));
}

}  // namespace

PrecheckDialog::PrecheckDialog(task::TaskSetup setup, QString auditPath, QWidget* parent)
    : QDialog(parent), setup_(std::move(setup)), auditPath_(std::move(auditPath)) {
    setWindowTitle(tr("Precheck of task %1").arg(QString::fromStdString(setup_.taskName)));
    resize(kDialogWidth, kDialogHeight);
    model_ = new PrecheckFindingModel(this);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    table_ = new QTableView(this);
    table_->setModel(model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    // A long "what is wrong" wraps instead of being cut off: every finding reads in full in the list.
    table_->setWordWrap(true);
    table_->setTextElideMode(Qt::ElideNone);
    connect(table_->horizontalHeader(), &QHeaderView::sectionResized, table_, &QTableView::resizeRowsToContents);
    table_->setColumnWidth(PrecheckFindingModel::SeverityColumn, kSeverityColumnWidth);
    table_->setColumnWidth(PrecheckFindingModel::CheckColumn, kCheckColumnWidth);
    table_->setColumnWidth(PrecheckFindingModel::SubjectColumn, kSubjectColumnWidth);
    details_ = new QTextBrowser(this);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(table_);
    splitter->addWidget(details_);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    copy_ = buttons->addButton(tr("&Copy fix"), QDialogButtonBox::ActionRole);
    copy_->setToolTip(tr("Copy the selected finding's fix (statements or config lines) to the clipboard"));
    apply_ = buttons->addButton(tr("&Apply fix..."), QDialogButtonBox::ActionRole);
    apply_->setToolTip(
        tr("Run the selected finding's SQL on the server it names, as the task's user, after you confirm; "
           "written to the audit log"));
    rerun_ = buttons->addButton(tr("Check &again"), QDialogButtonBox::ActionRole);
    rerun_->setToolTip(tr("Read both servers again and list what is still to fix (changes nothing)"));
    buttons->button(QDialogButtonBox::Close)
        ->setToolTip(tr("Close the report; nothing is changed that you did not apply and confirm"));
    connect(copy_, &QPushButton::clicked, this, &PrecheckDialog::copyFix);
    connect(apply_, &QPushButton::clicked, this, &PrecheckDialog::applyFix);
    connect(rerun_, &QPushButton::clicked, this, &PrecheckDialog::runPrecheck);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &PrecheckDialog::updateDetails);
    connect(&precheckWatcher_, &QFutureWatcher<precheck::PrecheckReport>::finished, this,
            &PrecheckDialog::onPrecheckFinished);
    connect(&fixWatcher_, &QFutureWatcher<QString>::finished, this, &PrecheckDialog::onFixFinished);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(summary_);
    layout->addWidget(splitter, 1);
    layout->addWidget(buttons);
    confirmer_ = [this](const precheck::Finding& finding, const QString& server) {
        return QMessageBox::question(this, tr("Apply the fix?"),
                                     tr("Run on %1:\n\n%2\n\nThis changes the server and is written to the audit "
                                        "log %3.")
                                         .arg(server, QString::fromStdString(finding.fix), auditPath_)) ==
               QMessageBox::Yes;
    };
    updateDetails();
}

// Jobs still running hold only their own copies; their results are dropped with the futures.
PrecheckDialog::~PrecheckDialog() = default;

QString PrecheckDialog::defaultAuditPath(const QString& taskName) {
    // The folder `syncscope-cli run` uses: a task run from the GUI and from the CLI keeps one audit.
    QString dir = QString::fromStdString(defaultLogDirectory());
    QDir().mkpath(dir);
    return dir + "/" + taskName + "-audit.jsonl";
}

PrecheckDialog* PrecheckDialog::checkOpenedTask(task::TaskSetup setup, const QString& auditPath, QMainWindow* window) {
    auto* dialog = new PrecheckDialog(std::move(setup), auditPath, window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &PrecheckDialog::precheckFinished, dialog, [dialog, window](int exitCode) {
        if (dialog->isVisible()) {
            return;  // the DBA has it open already (a later check)
        }
        if (exitCode != precheck::PrecheckReport::kExitOk) {
            dialog->show();
        } else {
            window->statusBar()->showMessage(nothingToFixMessage());
            dialog->deleteLater();
        }
    });
    dialog->runPrecheck();
    return dialog;
}

QString PrecheckDialog::nothingToFixMessage() {
    return tr("Precheck: nothing to fix");
}

void PrecheckDialog::runPrecheck() {
    if (isRunning()) {
        return;
    }
    summary_->setText(tr("Checking upstream %1 and downstream %2...")
                          .arg(QString::fromStdString(setup_.upstream.describe()),
                               QString::fromStdString(setup_.downstream.describe())));
    rerun_->setEnabled(false);
    precheckWatcher_.setFuture(QtConcurrent::run([setup = setup_] { return precheck::runPrecheck(setup); }));
}

bool PrecheckDialog::isRunning() const {
    return precheckWatcher_.isRunning() || fixWatcher_.isRunning();
}

void PrecheckDialog::onPrecheckFinished() {
    report_ = precheckWatcher_.result();
    model_->setFindings(report_.findings);
    table_->resizeRowsToContents();
    rerun_->setEnabled(true);
    summary_->setText(tr("%1 replicated: %2, %3, %4 (exit code %5 in syncscope-cli check)")
                          .arg(counted(report_.tablesChecked, "table", "tables"),
                               counted(report_.count(precheck::Severity::Error), "error", "errors"),
                               counted(report_.count(precheck::Severity::Warning), "warning", "warnings"),
                               counted(report_.count(precheck::Severity::Note), "note", "notes"))
                          .arg(report_.exitCode()));
    if (model_->rowCount() > 0) {
        selectFinding(0);
    }
    updateDetails();
    emit precheckFinished(report_.exitCode());
}

void PrecheckDialog::selectFinding(int row) {
    table_->selectRow(row);
    table_->setCurrentIndex(model_->index(row, 0));
    updateDetails();
}

const precheck::Finding* PrecheckDialog::selected() const {
    return model_->finding(table_->currentIndex().row());
}

void PrecheckDialog::updateDetails() {
    const precheck::Finding* f = selected();
    copy_->setEnabled(f != nullptr);
    apply_->setEnabled(f != nullptr && f->hasRunnableFix() && !fixWatcher_.isRunning());
    if (!f) {
        details_->setHtml(model_->rowCount() == 0 && !precheckWatcher_.isRunning() && !report_.areas.empty()
                              ? tr("<p>Nothing to fix.</p>")
                              : QString());
        return;
    }
    details_->setHtml(QStringLiteral("<p><b>%1</b> %2 &mdash; %3</p><p><b>What:</b> %4</p><p><b>Why it matters:</b> "
                                     "%5</p><p><b>Fix</b> (%6):</p><pre>%7</pre>")
                          .arg(escaped(precheck::severityName(f->severity)).toUpper(), escaped(f->check),
                               escaped(f->subject), escaped(f->problem), escaped(f->impact),
                               escaped(precheck::fixTargetText(f->fixTarget)), escaped(f->fix)));
}

QString PrecheckDialog::summary() const {
    return summary_->text();
}

QString PrecheckDialog::details() const {
    return details_->toPlainText();
}

void PrecheckDialog::copyFix() {
    if (const precheck::Finding* f = selected()) {
        QApplication::clipboard()->setText(QString::fromStdString(f->fix));
    }
}

void PrecheckDialog::setConfirmer(std::function<bool(const precheck::Finding&, const QString&)> confirmer) {
    confirmer_ = std::move(confirmer);
}

void PrecheckDialog::applyFix() {
    const precheck::Finding* f = selected();
    if (!f || !f->hasRunnableFix() || fixWatcher_.isRunning()) {
        return;
    }
    const bool upstream = f->fixTarget == precheck::FixTarget::Upstream;
    const ServerSettings server = upstream ? setup_.upstream : setup_.downstream;
    const QString serverText =
        QString::fromLatin1(upstream ? "the upstream " : "the downstream ") + QString::fromStdString(server.describe());
    if (!confirmer_(*f, serverText)) {
        return;
    }
    fixCheck_ = QString::fromStdString(f->check);
    apply_->setEnabled(false);
    summary_->setText(tr("Applying the fix of %1 on %2...").arg(fixCheck_, serverText));
    fixWatcher_.setFuture(QtConcurrent::run([finding = *f, server, audit = auditPath_.toStdString(),
                                             taskName = setup_.taskName, sourceId = setup_.sourceId]() -> QString {
        try {
            task::AuditLog log(audit);
            precheck::applyFix(finding, server, log, taskName, sourceId);
            return {};
        } catch (const std::exception& e) {
            return QString::fromUtf8(e.what());
        }
    }));
}

void PrecheckDialog::onFixFinished() {
    const QString error = fixWatcher_.result();
    emit fixFinished(fixCheck_, error);
    if (!error.isEmpty()) {
        summary_->setText(tr("The fix failed (written to the audit log): %1").arg(error));
        updateDetails();
        return;
    }
    runPrecheck();
}

}  // namespace syncscope::ui
