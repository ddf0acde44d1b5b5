#include "ui/dialogs/stop_point_dialog.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "engine/common/local_time.h"

namespace syncscope::ui {

namespace {
constexpr int kWidth = 760;
constexpr int kHeight = 300;
}  // namespace

StopPointDialog::StopPointDialog(const QString& point, StopPointJob job, QWidget* parent)
    : QDialog(parent), job_(std::move(job)), cancel_(std::make_shared<std::atomic<bool>>(false)) {
    setWindowTitle(tr("Stop at a point"));
    resize(kWidth, kHeight);
    auto* intro =
        new QLabel(tr("The task pauses by itself at a transaction end, as START SLAVE UNTIL: after FILE:POS, after the "
                      "transaction that completes a GTID, or in front of the first transaction at or after 'YYYY-MM-DD "
                      "HH:MM:SS' (local time). Nothing is skipped: every transaction before the point is applied."),
                   this);
    intro->setWordWrap(true);
    point_ = new QLineEdit(point, this);
    point_->setPlaceholderText(tr("FILE:POS, a GTID, or YYYY-MM-DD HH:MM:SS"));
    check_ = new QPushButton(tr("&Check"), this);
    check_->setToolTip(tr("Read the upstream's binlog from the task's applied point up to this point"));
    plan_ = new QLabel(tr("Check the point to see where the task will pause."), this);
    plan_->setWordWrap(true);
    plan_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    plan_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    ask_ = new QLabel(this);
    typed_ = new QLineEdit(this);
    typed_->setObjectName(QStringLiteral("typedConfirmation"));
    typed_->setEnabled(false);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    set_ = buttons->addButton(tr("Set the stop point"), QDialogButtonBox::AcceptRole);
    set_->setEnabled(false);

    auto* pointRow = new QHBoxLayout;
    pointRow->addWidget(new QLabel(tr("Point:"), this));
    pointRow->addWidget(point_, 1);
    pointRow->addWidget(check_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(pointRow);
    layout->addWidget(plan_, 1);
    layout->addWidget(ask_);
    layout->addWidget(typed_);
    layout->addWidget(buttons);

    connect(check_, &QPushButton::clicked, this, &StopPointDialog::startCheck);
    connect(point_, &QLineEdit::returnPressed, this, &StopPointDialog::startCheck);
    connect(point_, &QLineEdit::textEdited, this, [this] {
        checked_.clear();  // a changed point is checked again before it can be set
        typed_->clear();
        typed_->setEnabled(false);
        ask_->clear();
        set_->setEnabled(false);
    });
    connect(typed_, &QLineEdit::textChanged, this, [this] { set_->setEnabled(confirmable()); });
    connect(buttons, &QDialogButtonBox::accepted, this, &StopPointDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &StopPointDialog::reject);
    connect(&watcher_, &QFutureWatcher<StopPointCheck>::finished, this, &StopPointDialog::onChecked);
}

StopPointDialog::~StopPointDialog() {
    cancel_->store(true);
    watcher_.waitForFinished();
}

void StopPointDialog::startCheck() {
    if (watcher_.isRunning()) {
        return;
    }
    const QString point = point_->text().trimmed();
    checked_.clear();
    refused_ = false;
    set_->setEnabled(false);
    typed_->setEnabled(false);
    pending_ = true;
    plan_->setText(tr("Reading the upstream's binlog from the task's applied point..."));
    watcher_.setFuture(QtConcurrent::run([job = job_, point = point.toStdString(), cancel = cancel_] {
        StopPointCheck check;
        try {
            check.plan = job(point, cancel.get());
        } catch (const std::exception& e) {
            check.error = e.what();
        }
        return check;
    }));
    checked_ = point;
}

void StopPointDialog::onChecked() {
    const StopPointCheck check = watcher_.result();
    pending_ = false;
    if (!check.plan || !check.plan->refusal.empty()) {
        refused_ = true;
        const QString reason = QString::fromStdString(check.plan ? check.plan->refusal : check.error);
        plan_->setText(tr("<b>Refused, nothing changed:</b> %1").arg(reason.toHtmlEscaped()));
        ask_->clear();
        emit planShown();
        return;
    }
    const preview::StopPointPlan& plan = *check.plan;
    QString text;
    if (plan.found) {
        const QString where = QString::fromStdString(plan.at.toString());
        const QString what =
            QString::fromStdString(plan.gtid.empty() ? std::string("the transaction") : "transaction " + plan.gtid);
        text = plan.pauseBefore
                   ? tr("The task applies <b>%1 transaction(s)</b> (%2 row changes) and pauses in front of %3 at %4 "
                        "(%5).")
                   : tr("The task applies <b>%1 transaction(s)</b> (%2 row changes) and pauses after the last, %3, "
                        "ending at %4 (%5).");
        text = text.arg(plan.transactions)
                   .arg(plan.rowChanges)
                   .arg(what.toHtmlEscaped(), where, QString::fromStdString(formatLocalTime(plan.timestamp)));
    } else if (plan.readLimitReached) {
        text = tr("%1 is further than %2 events from the task's applied point: the task pauses when it gets there.")
                   .arg(QString::fromStdString(plan.described).toHtmlEscaped())
                   .arg(preview::kStopPlanMaxEvents);
    } else {
        text = tr("%1 is not in the upstream's binlog yet: the task applies the %2 transaction(s) written so far "
                  "(%3 row changes) and pauses when it gets there.")
                   .arg(QString::fromStdString(plan.described).toHtmlEscaped())
                   .arg(plan.transactions)
                   .arg(plan.rowChanges);
    }
    plan_->setText(text + QStringLiteral("<br>") + tr("Nothing is skipped."));
    ask_->setText(tr("To set it, type <b>%1</b> below.").arg(checked_.toHtmlEscaped()));
    typed_->setPlaceholderText(checked_);
    typed_->setEnabled(true);
    set_->setEnabled(confirmable());
    emit planShown();
}

bool StopPointDialog::confirmable() const {
    return !isBusy() && !refused_ && !checked_.isEmpty() && typed_->text().trimmed() == checked_;
}

void StopPointDialog::accept() {
    if (!confirmable()) {
        return;
    }
    QDialog::accept();
}

}  // namespace syncscope::ui
