#include "ui/dialogs/new_task_spec.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QString>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/common/error.h"

namespace syncscope::ui {

namespace {

config::DatabaseConfig databaseConfig(const ServerEntry& entry) {
    config::DatabaseConfig database;
    database.server = entry.server;
    if (!entry.passwordFile.empty()) {
        database.passwordSource = {config::PasswordSource::Kind::File, entry.passwordFile};
    }
    return database;
}

// Letters, digits, '-', '_' and '.': the name becomes part of a file name and of the checkpoint table's name.
void checkFileNamePart(const std::string& what, const std::string& value) {
    if (value.empty()) {
        throw Error(what + " is empty");
    }
    for (char c : value) {
        const bool allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                             c == '_' || c == '.';
        if (!allowed) {
            throw Error(what + " '" + value + "' may only hold letters, digits, '-', '_' and '.'");
        }
    }
}

void writeFile(const std::string& path, const std::string& text, bool secret) {
    QSaveFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        throw Error("cannot write '" + path + "': " + file.errorString().toStdString());
    }
    if (secret) {
        // The password is in the file: only its owner may read it.
        file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    }
    file.write(QByteArray::fromStdString(text));
    if (!file.commit()) {
        throw Error("cannot write '" + path + "': " + file.errorString().toStdString());
    }
}

// Each more source's file loads with the source-id it was added with, and no source-id is there twice.
void checkMoreSources(const NewTaskSpec& spec) {
    std::vector<std::string> ids{spec.sourceId};
    for (const MoreSource& more : spec.moreSources) {
        const config::SourceConfig loaded = config::loadSourceConfig(more.sourceFile);
        if (loaded.sourceId != more.sourceId) {
            throw Error("source file '" + more.sourceFile + "' has source-id '" + loaded.sourceId + "', not '" +
                        more.sourceId + "' (was it changed after it was added?)");
        }
        if (std::find(ids.begin(), ids.end(), more.sourceId) != ids.end()) {
            throw Error("source-id '" + more.sourceId + "' is given twice: each source once");
        }
        ids.push_back(more.sourceId);
    }
}

}  // namespace

std::string ServerEntry::resolvePassword(const std::string& directory) const {
    if (passwordFile.empty()) {
        return server.password;
    }
    std::filesystem::path file(passwordFile);
    if (file.is_relative() && !directory.empty()) {
        file = std::filesystem::path(directory) / file;
    }
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        throw Error("cannot read password file '" + file.string() + "'");
    }
    std::ostringstream text;
    text << in.rdbuf();
    std::string password = text.str();
    // As the loader reads it: one trailing line end is dropped.
    if (!password.empty() && password.back() == '\n') {
        password.pop_back();
    }
    if (!password.empty() && password.back() == '\r') {
        password.pop_back();
    }
    return password;
}

config::TaskConfig NewTaskSpec::taskConfig() const {
    config::TaskConfig config;
    config.name = name;
    config.metaSchema = metaSchema;
    config.targetDatabase = databaseConfig(target);

    config::MysqlInstanceConfig instance;
    instance.sourceId = sourceId;
    if (!startBinlogName.empty() || !startGtid.empty()) {
        config::BinlogStart start;
        start.binlogName = startBinlogName;
        start.binlogPos = startBinlogName.empty() ? config::BinlogStart::kFirstEventPosition : startBinlogPos;
        start.binlogGtid = startGtid;
        instance.meta = start;
    }
    if (!doDbs.empty()) {
        instance.blockAllowList = name + "-dbs";
        filter::BlockAllowRules rules;
        rules.doDbs = doDbs;
        config.blockAllowLists[instance.blockAllowList] = rules;
    }
    config::SyncerSettings syncer;
    syncer.workerCount = workerCount;
    syncer.batch = batch;
    syncer.checkpointFlushIntervalSeconds = checkpointFlushIntervalSeconds;
    instance.syncerConfigName = name + "-syncer";
    config.syncers[instance.syncerConfigName] = syncer;
    for (const MoreSource& more : moreSources) {
        config::MysqlInstanceConfig another;
        another.sourceId = more.sourceId;
        another.syncerConfigName = instance.syncerConfigName;
        if (!more.doDbs.empty()) {
            another.blockAllowList = name + "-" + more.sourceId + "-dbs";
            filter::BlockAllowRules rules;
            rules.doDbs = more.doDbs;
            config.blockAllowLists[another.blockAllowList] = rules;
        }
        config.mysqlInstances.push_back(std::move(another));
    }
    config.mysqlInstances.insert(config.mysqlInstances.begin(), std::move(instance));
    return config;
}

config::SourceConfig NewTaskSpec::sourceConfig() const {
    config::SourceConfig config;
    config.sourceId = sourceId;
    config.flavor = flavor;
    config.enableGtid = enableGtid;
    config.from = databaseConfig(source);
    return config;
}

NewTaskFiles newTaskFilePaths(const NewTaskSpec& spec, const std::string& directory) {
    const std::filesystem::path folder(directory);
    return {(folder / (spec.name + "-task.yaml")).string(), (folder / (spec.sourceId + "-source.yaml")).string(), {}};
}

NewTaskFiles writeNewTaskFiles(const NewTaskSpec& spec, const std::string& directory, bool overwrite) {
    checkFileNamePart("the task name", spec.name);
    checkFileNamePart("the source-id", spec.sourceId);
    if (directory.empty() || !QFileInfo(QString::fromStdString(directory)).isDir()) {
        throw Error("the folder '" + directory + "' does not exist");
    }
    NewTaskFiles files = newTaskFilePaths(spec, directory);
    checkMoreSources(spec);
    for (const MoreSource& more : spec.moreSources) {
        files.moreSourcePaths.push_back(more.sourceFile);
    }
    if (!overwrite) {
        for (const std::string& path : {files.taskPath, files.sourcePath}) {
            if (QFile::exists(QString::fromStdString(path))) {
                throw Error("'" + path + "' already exists");
            }
        }
    }
    const config::TaskConfig taskConfig = spec.taskConfig();
    const config::SourceConfig sourceConfig = spec.sourceConfig();
    const std::string taskText = config::toYaml(taskConfig);
    const std::string sourceText = config::toYaml(sourceConfig);
    // Checked by the engine's own parser under their final names (password files resolve beside them)
    // before anything is written.
    const config::TaskConfig parsedTask = config::parseTaskConfig(taskText, files.taskPath);
    const config::SourceConfig parsedSource = config::parseSourceConfig(sourceText, files.sourcePath);
    std::vector<std::string> warnings;
    (void)parsedTask.instanceFor(parsedSource, &warnings);

    writeFile(files.sourcePath, sourceText, spec.source.passwordFile.empty());
    writeFile(files.taskPath, taskText, spec.target.passwordFile.empty());

    const config::TaskConfig loadedTask = config::loadTaskConfig(files.taskPath);
    const config::SourceConfig loadedSource = config::loadSourceConfig(files.sourcePath);
    if (!loadedTask.sameSettings(parsedTask) || !loadedSource.sameSettings(parsedSource)) {
        throw Error("'" + files.taskPath + "' or '" + files.sourcePath +
                    "' does not load back to the settings written (please report this)");
    }
    return files;
}

}  // namespace syncscope::ui
