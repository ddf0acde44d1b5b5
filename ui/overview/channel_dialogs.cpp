#include "ui/overview/channel_dialogs.h"
#include "engine/common/state_directory.h"

#include <functional>

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>

namespace syncscope::ui {

namespace {

constexpr int kMaxPort = 65535;
constexpr int kDefaultControlPort = 8261;
constexpr int kDefaultMariaDbPort = 3306;

QSpinBox* makePortBox(QWidget* parent, int value) {
    auto* box = new QSpinBox(parent);
    box->setRange(1, kMaxPort);
    box->setValue(value);
    return box;
}

QDialogButtonBox* okCancel(QDialog* dialog, QFormLayout* form) {
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog);
    QObject::connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    form->addRow(buttons);
    return buttons;
}

// OK stays disabled while the typed entry has a problem, which the label names.
void checkOnEveryEdit(QDialog* dialog, QFormLayout* form, QDialogButtonBox* buttons, QLabel* problem,
                      std::function<ChannelSpec()> spec) {
    problem->setWordWrap(true);
    problem->setStyleSheet(QStringLiteral("color: #c62828"));
    form->insertRow(form->rowCount() - 1, problem);
    auto check = [buttons, problem, spec] {
        const QString reason = spec().inputProblem();
        problem->setText(reason);
        buttons->button(QDialogButtonBox::Ok)->setEnabled(reason.isEmpty());
    };
    for (QLineEdit* edit : dialog->findChildren<QLineEdit*>()) {
        QObject::connect(edit, &QLineEdit::textChanged, dialog, check);
    }
    for (QCheckBox* box : dialog->findChildren<QCheckBox*>()) {
        QObject::connect(box, &QCheckBox::toggled, dialog, check);
    }
    check();
}

}  // namespace

AddRemoteEngineDialog::AddRemoteEngineDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Add remote engine"));
    auto* form = new QFormLayout(this);
    host_ = new QLineEdit(this);
    host_->setPlaceholderText(tr("db-sync-01.example.com"));
    port_ = makePortBox(this, kDefaultControlPort);
    tls_ = new QCheckBox(tr("HTTPS, verifying the engine's certificate"), this);
    ca_ = new QLineEdit(this);
    ca_->setPlaceholderText(tr("PEM file of the CA that signed the engine's certificate"));
    token_ = new QLineEdit(this);
    token_->setPlaceholderText(tr("file whose first line is the engine's --token-file token"));
    form->addRow(tr("Host"), host_);
    form->addRow(tr("Port"), port_);
    form->addRow(tr("TLS"), tls_);
    form->addRow(tr("CA file"), ca_);
    form->addRow(tr("Token file"), token_);
    problem_ = new QLabel(this);
    checkOnEveryEdit(this, form, okCancel(this, form), problem_, [this] { return spec(); });
}

ChannelSpec AddRemoteEngineDialog::spec() const {
    ChannelSpec spec;
    spec.kind = ChannelKind::RemoteEngine;
    spec.host = host_->text().trimmed();
    spec.port = port_->value();
    spec.tls = tls_->isChecked();
    spec.caFile = ca_->text().trimmed();
    spec.tokenFile = token_->text().trimmed();
    return spec;
}

NotificationSettingsDialog::NotificationSettingsDialog(const QString& channel, bool notify, double lagThresholdSeconds,
                                                       QWidget* parent)
    : QDialog(parent) {
    constexpr int kMaxLagThresholdSeconds = 7 * 24 * 3600;
    setWindowTitle(tr("Notifications for %1").arg(channel));
    auto* form = new QFormLayout(this);
    notify_ = new QCheckBox(tr("Notify when it fails, is lost, lags or shows an anomaly"), this);
    notify_->setChecked(notify);
    lag_ = new QSpinBox(this);
    lag_->setRange(1, kMaxLagThresholdSeconds);
    lag_->setSuffix(tr(" s"));
    lag_->setValue(int(lagThresholdSeconds));
    form->addRow(tr("Notify"), notify_);
    form->addRow(tr("Lag threshold"), lag_);
    okCancel(this, form);
}

bool NotificationSettingsDialog::notify() const {
    return notify_->isChecked();
}

double NotificationSettingsDialog::lagThresholdSeconds() const {
    return lag_->value();
}

AddReplicaDialog::AddReplicaDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Add MariaDB replica"));
    auto* form = new QFormLayout(this);
    host_ = new QLineEdit(this);
    port_ = makePortBox(this, kDefaultMariaDbPort);
    user_ = new QLineEdit(this);
    user_->setToolTip(
        tr("Needs SLAVE MONITOR (REPLICATION CLIENT before 10.5) to show, and SUPER or "
           "REPLICATION SLAVE ADMIN to control; also used to read the masters' binlogs"));
    password_ = new QLineEdit(this);
    password_->setEchoMode(QLineEdit::Password);
    password_->setPlaceholderText(tr("kept for this session only"));
    passwordFile_ = new QLineEdit(this);
    passwordFile_->setPlaceholderText(tr("or a file whose first line is the password (saved in the workspace)"));
    audit_ = new QLineEdit(this);
    audit_->setText(
        QDir(QString::fromStdString(defaultLogDirectory())).filePath(QStringLiteral("replica-audit.jsonl")));
    audit_->setToolTip(tr("Every STOP/START SLAVE, skip and CHANGE MASTER is written here before it runs"));
    form->addRow(tr("Host"), host_);
    form->addRow(tr("Port"), port_);
    form->addRow(tr("User"), user_);
    form->addRow(tr("Password"), password_);
    form->addRow(tr("Password file"), passwordFile_);
    form->addRow(tr("Audit log"), audit_);
    problem_ = new QLabel(this);
    checkOnEveryEdit(this, form, okCancel(this, form), problem_, [this] { return spec(); });
}

ChannelSpec AddReplicaDialog::spec() const {
    ChannelSpec spec;
    spec.kind = ChannelKind::NativeReplica;
    spec.host = host_->text().trimmed();
    spec.port = port_->value();
    spec.user = user_->text().trimmed();
    spec.password = password_->text();
    spec.passwordFile = passwordFile_->text().trimmed();
    spec.auditPath = audit_->text().trimmed();
    return spec;
}

AddDmClusterDialog::AddDmClusterDialog(QWidget* parent) : QDialog(parent) {
    constexpr int kDialogWidth = 640;  // room for two or three masters' addresses
    setWindowTitle(tr("Add DM cluster"));
    setMinimumWidth(kDialogWidth);
    auto* form = new QFormLayout(this);
    masters_ = new QLineEdit(this);
    masters_->setPlaceholderText(tr("http://dm-master-1:8261, http://dm-master-2:8261"));
    masters_->setToolTip(
        tr("The dm-masters' OpenAPI addresses (DM v6 and later, openapi: true), separated by commas "
           "or spaces; tried in turn until one answers"));
    ca_ = new QLineEdit(this);
    ca_->setPlaceholderText(tr("PEM file of the CA that signed the masters' certificates (https)"));
    cert_ = new QLineEdit(this);
    cert_->setPlaceholderText(tr("client certificate, when the masters ask for one"));
    key_ = new QLineEdit(this);
    key_->setPlaceholderText(tr("its key"));
    audit_ = new QLineEdit(this);
    user_ = new QLineEdit(this);
    user_->setPlaceholderText(tr("optional: a user that may read the tasks' dm_meta checkpoint tables"));
    password_ = new QLineEdit(this);
    password_->setEchoMode(QLineEdit::Password);
    password_->setPlaceholderText(tr("kept for this session only"));
    passwordFile_ = new QLineEdit(this);
    passwordFile_->setPlaceholderText(tr("or a file whose first line is the password (saved in the workspace)"));
    downstream_ = new QLineEdit(this);
    downstream_->setPlaceholderText(tr("HOST:PORT, when the tasks' target address is not reachable from here"));
    audit_->setText(
        QDir(QString::fromStdString(defaultLogDirectory())).filePath(QStringLiteral("dm-cluster-audit.jsonl")));
    audit_->setToolTip(tr("Every start, stop, enable and disable sent to the cluster is written here first"));
    form->addRow(tr("dm-masters"), masters_);
    form->addRow(tr("CA file"), ca_);
    form->addRow(tr("Client certificate"), cert_);
    form->addRow(tr("Client key"), key_);
    form->addRow(tr("Downstream user"), user_);
    form->addRow(tr("Password"), password_);
    form->addRow(tr("Password file"), passwordFile_);
    form->addRow(tr("Downstream address"), downstream_);
    form->addRow(tr("Audit log"), audit_);
    problem_ = new QLabel(this);
    checkOnEveryEdit(this, form, okCancel(this, form), problem_, [this] { return spec(); });
}

ChannelSpec AddDmClusterDialog::spec() const {
    ChannelSpec spec;
    spec.kind = ChannelKind::DmCluster;
    spec.masterUrls = masters_->text().split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts);
    spec.caFile = ca_->text().trimmed();
    spec.certFile = cert_->text().trimmed();
    spec.keyFile = key_->text().trimmed();
    spec.user = user_->text().trimmed();
    spec.password = password_->text();
    spec.passwordFile = passwordFile_->text().trimmed();
    spec.downstreamAddress = downstream_->text().trimmed();
    spec.auditPath = audit_->text().trimmed();
    return spec;
}

}  // namespace syncscope::ui
