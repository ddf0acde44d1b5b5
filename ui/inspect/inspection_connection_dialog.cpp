#include "ui/inspect/inspection_connection_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

namespace syncscope::ui {

namespace {
constexpr int kMaxPort = 65535;
const char* const kSettingsGroup = "inspect";

QSpinBox* makePortBox(QWidget* parent, const QString& tip) {
    auto* port = new QSpinBox(parent);
    port->setRange(1, kMaxPort);
    port->setValue(ServerSettings{}.port);
    port->setToolTip(tip);
    return port;
}

QLineEdit* makeLine(QWidget* parent, const QString& tip, const QString& placeholder = {}) {
    auto* line = new QLineEdit(parent);
    line->setToolTip(tip);
    line->setPlaceholderText(placeholder);
    return line;
}
}  // namespace

InspectionConnectionDialog::InspectionConnectionDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Inspect checkpoints"));

    auto* intro = new QLabel(tr("Reads <i>meta-schema</i>.<i>task</i>_syncer_checkpoint read-only (ours or a DM "
                                "deployment's). Nothing is written to either server."),
                             this);
    intro->setWordWrap(true);

    auto* targetGroup = new QGroupBox(tr("Downstream with the checkpoint tables"), this);
    targetHost_ = makeLine(targetGroup, tr("Host of the downstream that holds the checkpoint tables"));
    targetPort_ = makePortBox(targetGroup, tr("Port of the downstream"));
    targetUser_ = makeLine(targetGroup, tr("User with SELECT on the meta schema"));
    targetPassword_ = makeLine(targetGroup, tr("Password of that user (never stored)"));
    targetPassword_->setEchoMode(QLineEdit::Password);
    metaSchema_ = makeLine(targetGroup, tr("The task's meta-schema (DM's default is dm_meta)"));
    task_ = makeLine(targetGroup, tr("One task's table only; empty reads every <task>_syncer_checkpoint table"),
                     tr("every task"));
    auto* targetForm = new QFormLayout(targetGroup);
    targetForm->addRow(tr("&Host:"), targetHost_);
    targetForm->addRow(tr("&Port:"), targetPort_);
    targetForm->addRow(tr("&User:"), targetUser_);
    targetForm->addRow(tr("Pass&word:"), targetPassword_);
    targetForm->addRow(tr("&Meta schema:"), metaSchema_);
    targetForm->addRow(tr("&Task:"), task_);

    upstreamGroup_ = new QGroupBox(tr("Compare with the upstream"), this);
    upstreamGroup_->setCheckable(true);
    upstreamGroup_->setChecked(false);
    upstreamGroup_->setToolTip(
        tr("Also flag points beyond the upstream's position or in binlog files it no longer "
           "has, and count the events a resume would skip on its binlog"));
    upstreamHost_ = makeLine(upstreamGroup_, tr("Host of the upstream MySQL/MariaDB server"));
    upstreamPort_ = makePortBox(upstreamGroup_, tr("Port of the upstream"));
    upstreamUser_ = makeLine(upstreamGroup_, tr("User with REPLICATION CLIENT (SHOW BINARY LOGS, SHOW BINLOG EVENTS)"));
    upstreamPassword_ = makeLine(upstreamGroup_, tr("Password of that user (never stored)"));
    upstreamPassword_->setEchoMode(QLineEdit::Password);
    sourceId_ = makeLine(upstreamGroup_, tr("Only this source-id is this upstream's; empty compares every source"),
                         tr("every source"));
    auto* upstreamForm = new QFormLayout(upstreamGroup_);
    upstreamForm->addRow(tr("H&ost:"), upstreamHost_);
    upstreamForm->addRow(tr("Po&rt:"), upstreamPort_);
    upstreamForm->addRow(tr("U&ser:"), upstreamUser_);
    upstreamForm->addRow(tr("Passwor&d:"), upstreamPassword_);
    upstreamForm->addRow(tr("Source &id:"), sourceId_);

    problem_ = new QLabel(this);
    problem_->setWordWrap(true);
    // A red that reads on light and dark backgrounds.
    problem_->setStyleSheet(QStringLiteral("QLabel { color: #e53935; font-weight: bold; }"));
    problem_->setVisible(false);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Inspect"));
    buttons->button(QDialogButtonBox::Ok)->setToolTip(tr("Read the checkpoint tables (in the background)"));
    buttons->button(QDialogButtonBox::Cancel)->setToolTip(tr("Close without inspecting"));
    connect(buttons, &QDialogButtonBox::accepted, this, &InspectionConnectionDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(targetGroup);
    layout->addWidget(upstreamGroup_);
    layout->addWidget(problem_);
    layout->addWidget(buttons);

    restoreFields();
}

void InspectionConnectionDialog::setRequest(const inspect::InspectionRequest& request) {
    targetHost_->setText(QString::fromStdString(request.target.host));
    targetPort_->setValue(request.target.port);
    targetUser_->setText(QString::fromStdString(request.target.user));
    targetPassword_->setText(QString::fromStdString(request.target.password));
    metaSchema_->setText(QString::fromStdString(request.metaSchema));
    task_->setText(QString::fromStdString(request.task));
    upstreamGroup_->setChecked(request.upstream.has_value());
    if (request.upstream) {
        upstreamHost_->setText(QString::fromStdString(request.upstream->host));
        upstreamPort_->setValue(request.upstream->port);
        upstreamUser_->setText(QString::fromStdString(request.upstream->user));
        upstreamPassword_->setText(QString::fromStdString(request.upstream->password));
    }
    sourceId_->setText(QString::fromStdString(request.upstreamSourceId));
}

inspect::InspectionRequest InspectionConnectionDialog::request() const {
    inspect::InspectionRequest request;
    request.target.host = targetHost_->text().trimmed().toStdString();
    request.target.port = targetPort_->value();
    request.target.user = targetUser_->text().trimmed().toStdString();
    request.target.password = targetPassword_->text().toStdString();
    request.metaSchema = metaSchema_->text().trimmed().toStdString();
    request.task = task_->text().trimmed().toStdString();
    if (upstreamGroup_->isChecked()) {
        ServerSettings upstream;
        upstream.host = upstreamHost_->text().trimmed().toStdString();
        upstream.port = upstreamPort_->value();
        upstream.user = upstreamUser_->text().trimmed().toStdString();
        upstream.password = upstreamPassword_->text().toStdString();
        request.upstream = upstream;
        request.upstreamSourceId = sourceId_->text().trimmed().toStdString();
    }
    return request;
}

QString InspectionConnectionDialog::problem() const {
    if (targetHost_->text().trimmed().isEmpty()) {
        return tr("Downstream: the host is empty.");
    }
    if (targetUser_->text().trimmed().isEmpty()) {
        return tr("Downstream: the user is empty.");
    }
    if (metaSchema_->text().trimmed().isEmpty()) {
        return tr("Downstream: the meta schema is empty (DM's default is dm_meta).");
    }
    if (upstreamGroup_->isChecked()) {
        if (upstreamHost_->text().trimmed().isEmpty()) {
            return tr("Upstream: the host is empty (or untick \"Compare with the upstream\").");
        }
        if (upstreamUser_->text().trimmed().isEmpty()) {
            return tr("Upstream: the user is empty.");
        }
    }
    return {};
}

void InspectionConnectionDialog::accept() {
    const QString why = problem();
    problem_->setText(why);
    problem_->setVisible(!why.isEmpty());
    if (!why.isEmpty()) {
        return;
    }
    saveFields();
    QDialog::accept();
}

void InspectionConnectionDialog::restoreFields() {
    QSettings settings;
    settings.beginGroup(QLatin1String(kSettingsGroup));
    targetHost_->setText(settings.value(QStringLiteral("targetHost"), QStringLiteral("127.0.0.1")).toString());
    targetPort_->setValue(settings.value(QStringLiteral("targetPort"), ServerSettings{}.port).toInt());
    targetUser_->setText(settings.value(QStringLiteral("targetUser")).toString());
    metaSchema_->setText(
        settings
            .value(QStringLiteral("metaSchema"), QString::fromLatin1(inspect::InspectionRequest{}.metaSchema.c_str()))
            .toString());
    task_->setText(settings.value(QStringLiteral("task")).toString());
    upstreamGroup_->setChecked(settings.value(QStringLiteral("compareUpstream"), false).toBool());
    upstreamHost_->setText(settings.value(QStringLiteral("upstreamHost"), QStringLiteral("127.0.0.1")).toString());
    upstreamPort_->setValue(settings.value(QStringLiteral("upstreamPort"), ServerSettings{}.port).toInt());
    upstreamUser_->setText(settings.value(QStringLiteral("upstreamUser")).toString());
    sourceId_->setText(settings.value(QStringLiteral("sourceId")).toString());
}

void InspectionConnectionDialog::saveFields() const {
    // Never the passwords.
    QSettings settings;
    settings.beginGroup(QLatin1String(kSettingsGroup));
    settings.setValue(QStringLiteral("targetHost"), targetHost_->text().trimmed());
    settings.setValue(QStringLiteral("targetPort"), targetPort_->value());
    settings.setValue(QStringLiteral("targetUser"), targetUser_->text().trimmed());
    settings.setValue(QStringLiteral("metaSchema"), metaSchema_->text().trimmed());
    settings.setValue(QStringLiteral("task"), task_->text().trimmed());
    settings.setValue(QStringLiteral("compareUpstream"), upstreamGroup_->isChecked());
    settings.setValue(QStringLiteral("upstreamHost"), upstreamHost_->text().trimmed());
    settings.setValue(QStringLiteral("upstreamPort"), upstreamPort_->value());
    settings.setValue(QStringLiteral("upstreamUser"), upstreamUser_->text().trimmed());
    settings.setValue(QStringLiteral("sourceId"), sourceId_->text().trimmed());
}

}  // namespace syncscope::ui
