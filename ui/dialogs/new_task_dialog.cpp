#include "ui/dialogs/new_task_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>

#include "engine/task/task_setup_builder.h"
#include "ui/dialogs/more_sources_editor.h"
#include "ui/dialogs/precheck_dialog.h"
#include "ui/fleet/multi_source_group.h"

namespace syncscope::ui {

namespace {
constexpr int kMaxPort = 65535;
constexpr int kMaxWorkers = 1024;
constexpr int kMaxBatch = 100000;
constexpr int kMaxFlushSeconds = 3600;
constexpr int kMaxBinlogPos = 2147483647;
// Colours that read on light and dark backgrounds.
const char* const kOkStyle = "QLabel { color: #43a047; }";
const char* const kFailedStyle = "QLabel { color: #e53935; font-weight: bold; }";
const int kPasswordTyped = 0;
const int kPasswordFile = 1;

QSpinBox* makeSpin(QWidget* parent, int minimum, int maximum, int value, const QString& tip) {
    auto* spin = new QSpinBox(parent);
    spin->setRange(minimum, maximum);
    spin->setValue(value);
    spin->setToolTip(tip);
    return spin;
}

QLineEdit* makeLine(QWidget* parent, const QString& tip, const QString& placeholder = {}) {
    auto* line = new QLineEdit(parent);
    line->setToolTip(tip);
    line->setPlaceholderText(placeholder);
    return line;
}

QStringList splitNames(const QString& text) {
    QStringList names;
    for (const QString& part : text.split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts)) {
        names << part.trimmed();
    }
    return names;
}

void setStatus(QLabel* label, const SideCheck& check) {
    label->setText(QString::fromStdString(check.message));
    label->setStyleSheet(QLatin1String(check.ok ? kOkStyle : kFailedStyle));
}
}  // namespace

NewTaskDialog::NewTaskDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("New task"));

    auto* servers = new QHBoxLayout;
    servers->addWidget(makeSourceGroup());
    servers->addWidget(makeTargetGroup());

    directory_ = makeLine(this, tr("The folder the task file and the source file are written to"));
    directory_->setText(QDir::homePath());
    browseDirectory_ = new QPushButton(tr("&Browse..."), this);
    browseDirectory_->setToolTip(tr("Choose the folder for the task and source files"));
    connect(browseDirectory_, &QPushButton::clicked, this, [this] {
        const QString folder = QFileDialog::getExistingDirectory(this, tr("Save the task files in"), directory());
        if (!folder.isEmpty()) {
            directory_->setText(folder);
        }
    });
    auto* folderRow = new QHBoxLayout;
    folderRow->addWidget(new QLabel(tr("Save in:"), this));
    folderRow->addWidget(directory_, 1);
    folderRow->addWidget(browseDirectory_);

    sourceStatus_ = new QLabel(tr("Source: not tested yet"), this);
    targetStatus_ = new QLabel(tr("Target: not tested yet"), this);
    for (QLabel* label : {sourceStatus_, targetStatus_}) {
        label->setWordWrap(true);
        label->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    error_ = new QLabel(this);
    error_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    error_->setWordWrap(true);
    error_->setStyleSheet(QLatin1String(kFailedStyle));
    error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    error_->hide();

    auto* buttons = new QDialogButtonBox(this);
    test_ = buttons->addButton(tr("&Test connections"), QDialogButtonBox::ActionRole);
    test_->setToolTip(tr("Connect to the source and the target (in the background) and say what each answered"));
    precheck_ = buttons->addButton(tr("&Precheck..."), QDialogButtonBox::ActionRole);
    precheck_->setToolTip(
        tr("Check binlog settings, grants, the start position, tables and the target before the first start; "
           "every finding comes with its fix"));
    save_ = buttons->addButton(tr("&Save and open"), QDialogButtonBox::AcceptRole);
    save_->setToolTip(
        tr("Test both connections, then write the task file and the source file in DM's format "
           "and open the task"));
    save_->setDefault(true);
    cancel_ = buttons->addButton(QDialogButtonBox::Cancel);
    cancel_->setToolTip(tr("Close without writing anything"));
    connect(test_, &QPushButton::clicked, this, [this] { testConnections(false); });
    connect(save_, &QPushButton::clicked, this, [this] { testConnections(true); });
    connect(precheck_, &QPushButton::clicked, this, &NewTaskDialog::openPrecheck);
    connect(cancel_, &QPushButton::clicked, this, &QDialog::reject);
    connect(&watcher_, &QFutureWatcher<ConnectionCheck>::finished, this, &NewTaskDialog::onTested);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(makeTaskGroup());
    layout->addLayout(servers);
    moreSources_ = new MoreSourcesEditor(this);
    layout->addWidget(moreSources_);
    layout->addLayout(folderRow);
    layout->addWidget(sourceStatus_);
    layout->addWidget(targetStatus_);
    layout->addWidget(error_);
    layout->addStretch(1);
    layout->addWidget(buttons);
    updateGtidFields();
}

// No wait for a job still running: it holds only its own copies and never touches this object, so
// closing never blocks on the network; its result is dropped with the future.
NewTaskDialog::~NewTaskDialog() = default;

QGroupBox* NewTaskDialog::makeTaskGroup() {
    auto* group = new QGroupBox(tr("Task"), this);
    name_ = makeLine(group, tr("The task's name: names the files and the checkpoint table <name>_syncer_checkpoint"));
    metaSchema_ = makeLine(group, tr("Schema on the target that holds the checkpoint table (DM's default dm_meta)"));
    metaSchema_->setText(QString::fromLatin1(config::TaskConfig::kDefaultMetaSchema));
    doDbs_ = makeLine(group, tr("Replicate only these upstream databases (comma separated); empty: all"),
                      tr("e.g. shop, billing"));
    workerCount_ = makeSpin(group, 1, kMaxWorkers, config::SyncerSettings::kDefaultWorkerCount,
                            tr("Apply workers (DM's worker-count); rows of one key stay in order"));
    batch_ = makeSpin(group, 1, kMaxBatch, config::SyncerSettings::kDefaultBatch,
                      tr("Rows per downstream statement batch (DM's batch)"));
    flushInterval_ =
        makeSpin(group, 1, kMaxFlushSeconds, config::SyncerSettings::kDefaultCheckpointFlushIntervalSeconds,
                 tr("Seconds between checkpoint flushes (DM's checkpoint-flush-interval)"));
    flushInterval_->setSuffix(tr(" s"));

    auto* form = new QFormLayout;
    form->addRow(tr("&Name:"), name_);
    form->addRow(tr("&Meta schema:"), metaSchema_);
    form->addRow(tr("&Databases (do-dbs):"), doDbs_);
    auto* numbers = new QFormLayout;
    numbers->addRow(tr("&Worker count:"), workerCount_);
    numbers->addRow(tr("&Batch:"), batch_);
    numbers->addRow(tr("&Flush interval:"), flushInterval_);
    auto* row = new QHBoxLayout(group);
    row->addLayout(form, 2);
    row->addLayout(numbers, 1);
    return group;
}

void NewTaskDialog::makeServerFields(QWidget* parent, ServerFields& fields, const QString& side) {
    fields.host = makeLine(parent, tr("Host of the %1").arg(side));
    fields.host->setText(QStringLiteral("127.0.0.1"));
    fields.port = makeSpin(parent, 1, kMaxPort, config::DatabaseConfig::kDefaultPort, tr("Port of the %1").arg(side));
    fields.user = makeLine(parent, tr("User on the %1").arg(side));
    fields.passwordKind = new QComboBox(parent);
    fields.passwordKind->addItems({tr("Password"), tr("Password file")});
    fields.passwordKind->setToolTip(
        tr("A typed password is written into the file as plain text (the file is made "
           "readable by you only); a password file keeps it out of the task files"));
    fields.password = makeLine(parent, tr("Password of that user, or the path of a file holding it"));
    fields.browse = new QToolButton(parent);
    fields.browse->setText(tr("..."));
    fields.browse->setToolTip(tr("Choose the password file"));
    auto update = [&fields] {
        const bool file = fields.passwordKind->currentIndex() == kPasswordFile;
        fields.password->setEchoMode(file ? QLineEdit::Normal : QLineEdit::Password);
        fields.password->setPlaceholderText(file ? tr("path (relative: to the save folder)") : QString());
        fields.browse->setVisible(file);
    };
    connect(fields.passwordKind, &QComboBox::currentIndexChanged, this, update);
    connect(fields.browse, &QPushButton::clicked, this, [this, &fields] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Password file"), directory());
        if (!file.isEmpty()) {
            fields.password->setText(file);
        }
    });
    update();
}

QGroupBox* NewTaskDialog::makeSourceGroup() {
    auto* group = new QGroupBox(tr("Source (upstream)"), this);
    sourceId_ = makeLine(group, tr("DM's source-id: names this upstream in the task and the checkpoint rows"));
    makeServerFields(group, source_, tr("upstream"));
    flavor_ = new QComboBox(group);
    flavor_->addItem(tr("ask the server"), QString());
    flavor_->addItem(QStringLiteral("mysql"), QString::fromLatin1(config::SourceConfig::kMysqlFlavor));
    flavor_->addItem(QStringLiteral("mariadb"), QString::fromLatin1(config::SourceConfig::kMariadbFlavor));
    flavor_->setToolTip(tr("MySQL or MariaDB (their GTIDs differ); the test says what the server is"));
    gtid_ = new QCheckBox(tr("Use &GTIDs"), group);
    gtid_->setToolTip(tr("Track positions by GTID (enable-gtid); the upstream must have GTIDs on"));
    connect(gtid_, &QCheckBox::toggled, this, &NewTaskDialog::updateGtidFields);
    startFile_ =
        makeLine(group, tr("Start at this binlog file when the task has no checkpoint yet; empty: DM's default"),
                 tr("e.g. mysql-bin.000003"));
    startPos_ = makeSpin(group, int(config::BinlogStart::kFirstEventPosition), kMaxBinlogPos,
                         int(config::BinlogStart::kFirstEventPosition), tr("Start position in that binlog file"));
    startGtid_ = makeLine(group, tr("Start after this GTID set when the task has no checkpoint yet (GTID mode)"),
                          tr("e.g. 0-1-100 or uuid:1-100"));

    auto* passwordRow = new QHBoxLayout;
    passwordRow->addWidget(source_.passwordKind);
    passwordRow->addWidget(source_.password, 1);
    passwordRow->addWidget(source_.browse);
    auto* startRow = new QHBoxLayout;
    startRow->addWidget(startFile_, 2);
    startRow->addWidget(startPos_, 1);
    auto* form = new QFormLayout(group);
    form->addRow(tr("Source &id:"), sourceId_);
    form->addRow(tr("&Host:"), source_.host);
    form->addRow(tr("&Port:"), source_.port);
    form->addRow(tr("&User:"), source_.user);
    form->addRow(tr("Password:"), passwordRow);
    form->addRow(tr("F&lavor:"), flavor_);
    form->addRow(QString(), gtid_);
    form->addRow(tr("Start file:pos:"), startRow);
    form->addRow(tr("Start GTID:"), startGtid_);
    return group;
}

QGroupBox* NewTaskDialog::makeTargetGroup() {
    auto* group = new QGroupBox(tr("Target (downstream)"), this);
    makeServerFields(group, target_, tr("downstream"));
    auto* passwordRow = new QHBoxLayout;
    passwordRow->addWidget(target_.passwordKind);
    passwordRow->addWidget(target_.password, 1);
    passwordRow->addWidget(target_.browse);
    auto* form = new QFormLayout(group);
    form->addRow(tr("H&ost:"), target_.host);
    form->addRow(tr("Po&rt:"), target_.port);
    form->addRow(tr("U&ser:"), target_.user);
    form->addRow(tr("Password:"), passwordRow);
    return group;
}

void NewTaskDialog::updateGtidFields() {
    startGtid_->setEnabled(gtid_->isChecked());
}

ServerEntry NewTaskDialog::serverEntry(const ServerFields& fields) const {
    ServerEntry entry;
    entry.server.host = fields.host->text().trimmed().toStdString();
    entry.server.port = fields.port->value();
    entry.server.user = fields.user->text().trimmed().toStdString();
    if (fields.passwordKind->currentIndex() == kPasswordFile) {
        entry.passwordFile = fields.password->text().trimmed().toStdString();
    } else {
        entry.server.password = fields.password->text().toStdString();
    }
    return entry;
}

void NewTaskDialog::setServerEntry(ServerFields& fields, const ServerEntry& entry) {
    fields.host->setText(QString::fromStdString(entry.server.host));
    fields.port->setValue(entry.server.port);
    fields.user->setText(QString::fromStdString(entry.server.user));
    const bool file = !entry.passwordFile.empty();
    fields.passwordKind->setCurrentIndex(file ? kPasswordFile : kPasswordTyped);
    fields.password->setText(QString::fromStdString(file ? entry.passwordFile : entry.server.password));
}

NewTaskSpec NewTaskDialog::spec() const {
    NewTaskSpec spec;
    spec.name = name_->text().trimmed().toStdString();
    spec.metaSchema = metaSchema_->text().trimmed().toStdString();
    spec.target = serverEntry(target_);
    spec.sourceId = sourceId_->text().trimmed().toStdString();
    spec.source = serverEntry(source_);
    spec.flavor = flavor_->currentData().toString().toStdString();
    spec.enableGtid = gtid_->isChecked();
    spec.startBinlogName = startFile_->text().trimmed().toStdString();
    spec.startBinlogPos = uint32_t(startPos_->value());
    spec.startGtid = spec.enableGtid ? startGtid_->text().trimmed().toStdString() : std::string();
    for (const QString& name : splitNames(doDbs_->text())) {
        spec.doDbs.push_back(name.toStdString());
    }
    spec.workerCount = workerCount_->value();
    spec.batch = batch_->value();
    spec.checkpointFlushIntervalSeconds = flushInterval_->value();
    spec.moreSources = moreSources_->sources();
    return spec;
}

void NewTaskDialog::setSpec(const NewTaskSpec& spec) {
    name_->setText(QString::fromStdString(spec.name));
    metaSchema_->setText(QString::fromStdString(spec.metaSchema));
    setServerEntry(target_, spec.target);
    sourceId_->setText(QString::fromStdString(spec.sourceId));
    setServerEntry(source_, spec.source);
    flavor_->setCurrentIndex(std::max(0, flavor_->findData(QString::fromStdString(spec.flavor))));
    gtid_->setChecked(spec.enableGtid);
    startFile_->setText(QString::fromStdString(spec.startBinlogName));
    startPos_->setValue(int(spec.startBinlogPos));
    startGtid_->setText(QString::fromStdString(spec.startGtid));
    QStringList dbs;
    for (const auto& db : spec.doDbs) {
        dbs << QString::fromStdString(db);
    }
    doDbs_->setText(dbs.join(QStringLiteral(", ")));
    workerCount_->setValue(spec.workerCount);
    batch_->setValue(spec.batch);
    flushInterval_->setValue(spec.checkpointFlushIntervalSeconds);
    moreSources_->setSources(spec.moreSources);
}

QString NewTaskDialog::directory() const {
    return directory_->text().trimmed();
}

void NewTaskDialog::setDirectory(const QString& directory) {
    directory_->setText(directory);
}

QString NewTaskDialog::problem() const {
    if (name_->text().trimmed().isEmpty()) {
        return tr("Task: the name is empty.");
    }
    if (metaSchema_->text().trimmed().isEmpty()) {
        return tr("Task: the meta schema is empty (DM's default is dm_meta).");
    }
    if (sourceId_->text().trimmed().isEmpty()) {
        return tr("Source: the source id is empty.");
    }
    const std::pair<const ServerFields*, QString> sides[] = {{&source_, tr("Source")}, {&target_, tr("Target")}};
    for (const auto& [fields, side] : sides) {
        if (fields->host->text().trimmed().isEmpty()) {
            return tr("%1: the host is empty.").arg(side);
        }
        if (fields->user->text().trimmed().isEmpty()) {
            return tr("%1: the user is empty.").arg(side);
        }
        if (fields->passwordKind->currentIndex() == kPasswordFile && fields->password->text().trimmed().isEmpty()) {
            return tr("%1: the password file is empty.").arg(side);
        }
    }
    if (QString more = moreSources_->problem(sourceId_->text().trimmed()); !more.isEmpty()) {
        return more;
    }
    if (directory().isEmpty() || !QDir(directory()).exists()) {
        return tr("Save in: the folder '%1' does not exist.").arg(directory());
    }
    return {};
}

bool NewTaskDialog::isTesting() const {
    return watcher_.isRunning();
}

void NewTaskDialog::testConnections(bool save) {
    if (isTesting()) {
        return;
    }
    error_->hide();
    const QString why = problem();
    if (!why.isEmpty()) {
        showError(why);
        emit connectionsTested(false);
        return;
    }
    saveWhenTested_ = save;
    test_->setEnabled(false);
    save_->setEnabled(false);
    sourceStatus_->setStyleSheet(QString());
    targetStatus_->setStyleSheet(QString());
    sourceStatus_->setText(tr("Source: connecting..."));
    targetStatus_->setText(tr("Target: connecting..."));
    watcher_.setFuture(QtConcurrent::run(
        [spec = spec(), folder = directory().toStdString()] { return checkConnections(spec, folder); }));
}

void NewTaskDialog::onTested() {
    const ConnectionCheck check = watcher_.result();
    test_->setEnabled(true);
    save_->setEnabled(true);
    setStatus(sourceStatus_, check.source);
    setStatus(targetStatus_, check.target);
    emit connectionsTested(check.ok());
    if (!check.ok()) {
        if (saveWhenTested_) {
            showError(tr("Nothing was saved: fix the connection that failed and try again."));
        }
        return;
    }
    if (saveWhenTested_) {
        save();
    }
}

void NewTaskDialog::save() {
    const NewTaskSpec current = spec();
    const NewTaskFiles paths = newTaskFilePaths(current, directory().toStdString());
    bool overwrite = false;
    if (QFile::exists(QString::fromStdString(paths.taskPath)) ||
        QFile::exists(QString::fromStdString(paths.sourcePath))) {
        const auto answer = QMessageBox::question(
            this, tr("Replace the files?"),
            tr("%1 or %2 exists already. Replace them?")
                .arg(QString::fromStdString(paths.taskPath), QString::fromStdString(paths.sourcePath)));
        if (answer != QMessageBox::Yes) {
            return;
        }
        overwrite = true;
    }
    try {
        const NewTaskFiles files = writeNewTaskFiles(current, directory().toStdString(), overwrite);
        taskPath_ = QString::fromStdString(files.taskPath);
        QStringList sourceFiles{QString::fromStdString(files.sourcePath)};
        for (const std::string& more : files.moreSourcePaths) {
            sourceFiles << QString::fromStdString(more);
        }
        sourcePath_ = sourceField(sourceFiles);
    } catch (const std::exception& e) {
        showError(tr("Nothing was saved: %1").arg(QString::fromUtf8(e.what())));
        return;
    }
    emit taskSaved(taskPath_, sourcePath_);
    accept();
}

PrecheckDialog* NewTaskDialog::openPrecheck() {
    error_->hide();
    const QString why = problem();
    if (!why.isEmpty()) {
        showError(why);
        return nullptr;
    }
    try {
        NewTaskSpec current = spec();
        const std::string folder = directory().toStdString();
        for (ServerEntry* entry : {&current.source, &current.target}) {
            entry->server.password = entry->resolvePassword(folder);
            entry->passwordFile.clear();
        }
        std::vector<std::string> warnings;
        task::TaskSetup setup = task::makeTaskSetup(current.taskConfig(), current.sourceConfig(), warnings);
        auto* dialog = new PrecheckDialog(std::move(setup),
                                          PrecheckDialog::defaultAuditPath(QString::fromStdString(current.name)), this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
        dialog->runPrecheck();
        return dialog;
    } catch (const std::exception& e) {
        showError(tr("Cannot precheck: %1").arg(QString::fromUtf8(e.what())));
        return nullptr;
    }
}

void NewTaskDialog::showError(const QString& text) {
    error_->setText(text);
    error_->show();
}

QString NewTaskDialog::sourceStatus() const {
    return sourceStatus_->text();
}

QString NewTaskDialog::targetStatus() const {
    return targetStatus_->text();
}

QString NewTaskDialog::errorText() const {
    return error_->isHidden() ? QString() : error_->text();
}

}  // namespace syncscope::ui
