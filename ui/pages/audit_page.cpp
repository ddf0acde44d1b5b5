#include "ui/pages/audit_page.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/models/audit_model.h"

namespace syncscope::ui {

AuditPage::AuditPage(AuditModel* model, QWidget* parent) : QWidget(parent), model_(model) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    path_ = new QLabel(this);
    path_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    path_->setToolTip(tr("The audit log file (JSON Lines) the engine writes every skip and position move to"));
    auto* reloadButton = new QPushButton(tr("&Reload"), this);
    reloadButton->setToolTip(tr("Read the lines appended to the audit log since the last reload"));
    bar->addWidget(path_, 1);
    bar->addWidget(reloadButton);
    layout->addLayout(bar);
    view_ = new QTableView(this);
    view_->setModel(model_);
    view_->verticalHeader()->hide();
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->setWordWrap(false);
    view_->setToolTip(tr("Audited actions, oldest first; hover a row for its full JSON"));
    layout->addWidget(view_, 1);
    connect(reloadButton, &QPushButton::clicked, this, &AuditPage::reload);
    timer_.setInterval(kReloadMilliseconds);
    connect(&timer_, &QTimer::timeout, this, &AuditPage::reload);
    setPath({});
}

void AuditPage::setPath(const QString& path) {
    model_->setPath(path);
    if (path.isEmpty()) {
        path_->setText(tr("No audit log: open a task to see its audited actions"));
        timer_.stop();
        return;
    }
    path_->setText(tr("Audit log: %1").arg(path));
    timer_.start();
    reload();
}

void AuditPage::reload() {
    const int before = model_->rowCount();
    const QString error = model_->reload();
    if (!error.isEmpty()) {
        path_->setText(error);
    }
    if (model_->rowCount() != before) {
        // Time, user, action and position are never cut off (an audit holds a few hundred lines at
        // most: measuring them is cheap); the details take the rest of the row.
        for (int column = 0; column < AuditModel::DetailsColumn; ++column) {
            view_->resizeColumnToContents(column);
        }
    }
}

}  // namespace syncscope::ui
