// The dialogs that add a workspace entry by address: a remote SyncScope engine (host, port, TLS with the
// CA to trust, token file), a MariaDB replica server (host, port, user, password or password file,
// audit log for its commands) and a DM cluster (its dm-masters, TLS files, the downstream's user for the
// checkpoint tables, audit log for its commands). They only
// gather a ChannelSpec; the overview opens it.
#pragma once

#include <QDialog>

#include "ui/fleet/channel_spec.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace syncscope::ui {

class AddRemoteEngineDialog : public QDialog {
    Q_OBJECT

public:
    explicit AddRemoteEngineDialog(QWidget* parent = nullptr);
    ChannelSpec spec() const;

    QLineEdit* hostEdit() const { return host_; }
    QSpinBox* portBox() const { return port_; }
    QCheckBox* tlsBox() const { return tls_; }
    QLineEdit* caEdit() const { return ca_; }
    QLineEdit* tokenEdit() const { return token_; }
    QLabel* problemLabel() const { return problem_; }

private:
    QLineEdit* host_;
    QSpinBox* port_;
    QCheckBox* tls_;
    QLineEdit* ca_;
    QLineEdit* token_;
    QLabel* problem_;
};

// Per channel: desktop notifications on or off, and the lag above which one is raised.
class NotificationSettingsDialog : public QDialog {
    Q_OBJECT

public:
    NotificationSettingsDialog(const QString& channel, bool notify, double lagThresholdSeconds,
                               QWidget* parent = nullptr);
    bool notify() const;
    double lagThresholdSeconds() const;

private:
    QCheckBox* notify_;
    QSpinBox* lag_;
};

class AddReplicaDialog : public QDialog {
    Q_OBJECT

public:
    explicit AddReplicaDialog(QWidget* parent = nullptr);
    ChannelSpec spec() const;

    QLineEdit* hostEdit() const { return host_; }
    QSpinBox* portBox() const { return port_; }
    QLineEdit* userEdit() const { return user_; }
    QLineEdit* passwordEdit() const { return password_; }
    QLineEdit* passwordFileEdit() const { return passwordFile_; }
    QLineEdit* auditEdit() const { return audit_; }
    QLabel* problemLabel() const { return problem_; }

private:
    QLineEdit* host_;
    QSpinBox* port_;
    QLineEdit* user_;
    QLineEdit* password_;
    QLineEdit* passwordFile_;
    QLineEdit* audit_;
    QLabel* problem_;
};

class AddDmClusterDialog : public QDialog {
    Q_OBJECT

public:
    explicit AddDmClusterDialog(QWidget* parent = nullptr);
    ChannelSpec spec() const;

    QLineEdit* mastersEdit() const { return masters_; }
    QLineEdit* caEdit() const { return ca_; }
    QLineEdit* certEdit() const { return cert_; }
    QLineEdit* keyEdit() const { return key_; }
    QLineEdit* userEdit() const { return user_; }
    QLineEdit* passwordEdit() const { return password_; }
    QLineEdit* passwordFileEdit() const { return passwordFile_; }
    QLineEdit* downstreamEdit() const { return downstream_; }
    QLineEdit* auditEdit() const { return audit_; }
    QLabel* problemLabel() const { return problem_; }

private:
    QLineEdit* masters_;
    QLineEdit* ca_;
    QLineEdit* cert_;
    QLineEdit* key_;
    QLineEdit* user_;
    QLineEdit* password_;
    QLineEdit* passwordFile_;
    QLineEdit* downstream_;
    QLineEdit* audit_;
    QLabel* problem_;
};

}  // namespace syncscope::ui
