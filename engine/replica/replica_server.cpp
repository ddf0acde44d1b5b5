#include "engine/replica/replica_server.h"

#include <regex>
#include <set>

#include "engine/binlog/binlog_position.h"
#include "engine/replica/failing_event_reader.h"
#include "engine/replica/named_query.h"
#include "engine/source/upstream_connection.h"

namespace syncscope::replica {

namespace {

constexpr int kPollTimeoutSeconds = 5;
constexpr uint64_t kFirstEventPos = 4;           // after the binlog file's magic bytes
constexpr unsigned kAccessDenied = 1227;         // ER_SPECIFIC_ACCESS_DENIED_ERROR
constexpr unsigned kAccessDeniedForUser = 1045;  // ER_ACCESS_DENIED_ERROR

ServerSettings withShortTimeouts(ServerSettings settings) {
    settings.connectTimeoutSeconds = kPollTimeoutSeconds;
    settings.readTimeoutSeconds = kPollTimeoutSeconds;
    return settings;
}

std::string masterKey(const ReplicaChannelStatus& channel) {
    return channel.masterHost + ":" + std::to_string(channel.masterPort);
}

std::string executedText(const ReplicaChannelStatus& channel) {
    return channel.execFile.empty() ? std::string("-") : channel.execFile + ":" + std::to_string(channel.execPos);
}

nlohmann::json imagesJson(const std::vector<task::RowImageView>& images) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& image : images) {
        nlohmann::json values = nlohmann::json::array();
        for (const auto& value : image.values) {
            values.push_back(value ? nlohmann::json(*value) : nlohmann::json(nullptr));
        }
        out.push_back(values);
    }
    return out;
}

}  // namespace

ReplicaServer::ReplicaServer(ReplicaServerOptions options)
    : options_(std::move(options)), audit_(options_.auditLogPath) {}

ReplicaServer::~ReplicaServer() = default;

ReplicaServerState ReplicaServer::latest() const {
    std::lock_guard lock(mutex_);
    return state_;
}

void ReplicaServer::pollNow() {
    poller_.pollNow();
}

task::FailedEvent ReplicaServer::failingEventOf(const ReplicaChannelStatus& channel) const {
    try {
        return readFailingEvent(masterSettings(channel), channel);
    } catch (const std::exception& e) {
        // Shown with the replica's own error text; the poll goes on (it runs on its own thread).
        task::FailedEvent failed;
        failed.errorCode = channel.lastSqlErrno;
        failed.errorMessage = channel.lastSqlError;
        failed.errorClass = "needs the DBA";
        failed.position.file = channel.execFile;
        failed.position.pos = channel.execPos;
        failed.hint = std::string("the event could not be read from the master: ") + e.what();
        return failed;
    }
}

ServerSettings ReplicaServer::masterSettings(const ReplicaChannelStatus& channel) const {
    ServerSettings master = options_.masterCredentials.value_or(options_.replica);
    master.host = channel.masterHost;
    master.port = channel.masterPort;
    return withShortTimeouts(master);
}

MasterView ReplicaServer::readMaster(const ReplicaChannelStatus& channel) {
    MasterView view;
    const std::string key = masterKey(channel);
    try {
        auto& connection = masterConnections_[key];
        if (!connection) {
            connection = std::make_unique<source::UpstreamConnection>(masterSettings(channel));
        }
        auto master = connection->query("SHOW MASTER STATUS");
        if (!master.empty() && master.front().size() >= 2 && master.front()[0] && master.front()[1]) {
            view.position = binlog::BinlogPosition(*master.front()[0], std::stoull(*master.front()[1]));
        }
        view.gtid = connection->queryValue("SELECT @@GLOBAL.gtid_binlog_pos").value_or("");
        for (const auto& row : connection->query("SHOW BINARY LOGS")) {
            if (row.size() >= 2 && row[0] && row[1]) {
                view.files.push_back({*row[0], std::stoull(*row[1])});
            }
        }
        view.axis = binlog::PositionAxis(view.files);
    } catch (const std::exception& e) {
        masterConnections_.erase(key);
        view = MasterView{};
        view.error = std::string("master ") + key + " cannot be read: " + e.what();
    }
    return view;
}

void ReplicaServer::pollOnce() {
    ReplicaServerState previous = latest();
    ReplicaServerState fresh;
    fresh.polls = previous.polls + 1;
    try {
        if (!connection_) {
            connection_ = std::make_unique<source::UpstreamConnection>(withShortTimeouts(options_.replica));
        }
        NamedRows status = queryWithColumnNames(*connection_, "SHOW ALL SLAVES STATUS");
        fresh.channels = channelsFromRows(status.columns, status.rows);
        std::string slavePos = connection_->queryValue("SELECT @@GLOBAL.gtid_slave_pos").value_or("");
        for (auto& channel : fresh.channels) {
            if (channel.gtidSlavePos.empty()) {
                channel.gtidSlavePos = slavePos;
            }
        }
        fresh.lastSeen = std::chrono::system_clock::now();
    } catch (const source::UpstreamError& e) {
        connection_.reset();
        fresh = previous;  // keep the last figures, say why they are not fresh
        fresh.polls = previous.polls + 1;
        if (e.code() == kAccessDenied) {
            fresh.error = "replica " + describe() + ": SHOW ALL SLAVES STATUS is refused: " + e.what() +
                          "; grant it with GRANT SLAVE MONITOR ON *.* TO '" + options_.replica.user +
                          "'@'<host>' (MariaDB 10.5+; REPLICATION CLIENT before)";
        } else if (e.code() == kAccessDeniedForUser) {
            fresh.error = "replica " + describe() + ": login refused (wrong user or password): " + e.what();
        } else {
            fresh.error = "replica " + describe() + " unreachable: " + e.what();
        }
        std::lock_guard lock(mutex_);
        state_ = std::move(fresh);
        return;
    } catch (const std::exception& e) {
        connection_.reset();
        fresh = previous;
        fresh.error = "replica " + describe() + ": " + e.what();
        std::lock_guard lock(mutex_);
        state_ = std::move(fresh);
        return;
    }
    std::set<std::string> seen;
    for (const auto& channel : fresh.channels) {
        if (!channel.masterHost.empty() && seen.insert(masterKey(channel)).second) {
            fresh.masters[masterKey(channel)] = readMaster(channel);
        }
    }
    for (const auto& channel : fresh.channels) {
        if (channel.lastSqlErrno == 0 || channel.sqlThreadRunning()) {
            continue;
        }
        auto cached = previous.failedEvents.find(channel.connectionName);
        if (cached != previous.failedEvents.end() && cached->second.errorMessage == channel.lastSqlError &&
            cached->second.errorCode == channel.lastSqlErrno) {
            fresh.failedEvents[channel.connectionName] = cached->second;
        } else {
            fresh.failedEvents[channel.connectionName] = failingEventOf(channel);
        }
    }
    std::lock_guard lock(mutex_);
    state_ = std::move(fresh);
}

std::optional<ReplicaChannelStatus> ReplicaServer::channel(const std::string& connectionName) const {
    for (const auto& channel : latest().channels) {
        if (channel.connectionName == connectionName) {
            return channel;
        }
    }
    return std::nullopt;
}

task::CommandResult ReplicaServer::run(const std::string& action, const std::string& connectionName,
                                       const std::vector<std::string>& statements, const std::string& positionAfter,
                                       nlohmann::json details) {
    std::lock_guard commandLock(commandMutex_);
    auto current = channel(connectionName);
    const std::string name = current ? current->describe() : "channel '" + connectionName + "'";
    task::AuditEntry entry;
    entry.action = action;
    entry.task = describe() + " " + name;
    entry.sourceId = current ? masterKey(*current) : std::string();
    entry.positionBefore = current ? executedText(*current) : std::string("-");
    entry.positionAfter = positionAfter;
    details["statements"] = statements;
    entry.details = std::move(details);
    try {
        audit_.append(entry);
    } catch (const std::exception& e) {
        return {false, action + " of " + name + " not done: the audit log cannot be written: " + e.what()};
    }
    try {
        source::UpstreamConnection connection(withShortTimeouts(options_.replica));
        for (const auto& statement : statements) {
            connection.execute(statement);
        }
    } catch (const std::exception& e) {
        pollNow();
        return {false, action + " of " + name + " on replica " + describe() + " failed: " + e.what()};
    }
    pollNow();
    return {true, action + " of " + name + " on replica " + describe() + " done"};
}

std::optional<task::CommandResult> ReplicaServer::refusal(const std::string& connectionName,
                                                          const std::string& action) const {
    ReplicaServerState state = latest();
    if (!state.error.empty()) {
        return task::CommandResult{false, action + " not sent: " + state.error};
    }
    if (!state.lastSeen) {
        return task::CommandResult{false, action + " not sent: replica " + describe() + " has not been reached yet"};
    }
    for (const auto& channel : state.channels) {
        if (channel.connectionName == connectionName) {
            return std::nullopt;
        }
    }
    return task::CommandResult{false, "replica " + describe() + " has no channel '" + connectionName + "'"};
}

task::CommandResult ReplicaServer::startThreads(const std::string& connectionName) {
    if (auto refused = refusal(connectionName, "start")) {
        return *refused;
    }
    auto current = channel(connectionName);
    if (current->ioThreadRunning() && current->sqlThreadRunning()) {
        return {false, "start: both threads of " + current->describe() + " are already running"};
    }
    return run("replica-start", connectionName, {"START SLAVE " + connectionLiteral(connectionName)}, "-", {});
}

task::CommandResult ReplicaServer::stopThreads(const std::string& connectionName) {
    if (auto refused = refusal(connectionName, "stop")) {
        return *refused;
    }
    auto current = channel(connectionName);
    if (current->ioRunning == "No" && !current->sqlThreadRunning()) {
        return {false, "stop: both threads of " + current->describe() + " are already stopped"};
    }
    return run("replica-stop", connectionName, {"STOP SLAVE " + connectionLiteral(connectionName)}, "-", {});
}

task::CommandResult ReplicaServer::skipFailedEvent(const std::string& connectionName) {
    if (auto refused = refusal(connectionName, "skip")) {
        return *refused;
    }
    auto current = channel(connectionName);
    if (current->lastSqlErrno == 0 || current->sqlThreadRunning()) {
        return {false, "nothing to skip: the SQL thread of " + current->describe() + " has not stopped on an error"};
    }
    nlohmann::json details{{"error_code", current->lastSqlErrno}, {"error", current->lastSqlError}};
    auto failed = latest().failedEvents;
    if (auto it = failed.find(connectionName); it != failed.end()) {
        details["event"] = {{"position", it->second.position.text()},
                            {"schema", it->second.schema},
                            {"table", it->second.table},
                            {"operation", it->second.operation},
                            {"columns", it->second.columns},
                            {"before", imagesJson(it->second.before)},
                            {"after", imagesJson(it->second.after)}};
    }
    const std::string literal = connectionLiteral(connectionName);
    return run("replica-skip", connectionName,
               {"SET @@SESSION.default_master_connection = " + literal, "SET GLOBAL sql_slave_skip_counter = 1",
                "START SLAVE " + literal},
               "the next transaction after " + executedText(*current), std::move(details));
}

std::optional<std::string> ReplicaServer::positionProblem(const std::string& connectionName,
                                                          const task::ResumeTarget& target) const {
    auto current = channel(connectionName);
    ReplicaServerState state = latest();
    auto master = current ? state.masters.find(masterKey(*current)) : state.masters.end();
    if (master == state.masters.end() || master->second.files.empty()) {
        return std::nullopt;  // the master's files are unknown: the server itself will judge
    }
    const auto& files = master->second.files;
    for (const auto& file : files) {
        if (file.file == target.file) {
            if (target.pos < kFirstEventPos || target.pos > file.size) {
                return "position " + std::to_string(target.pos) + " is outside " + target.file + " (" +
                       std::to_string(kFirstEventPos) + " to " + std::to_string(file.size) + ") on master " +
                       master->first;
            }
            return std::nullopt;
        }
    }
    return "master " + master->first + " has no binlog file " + target.file + " (it has " + files.front().file +
           " to " + files.back().file + ")";
}

task::CommandResult ReplicaServer::changeMaster(const std::string& connectionName, const task::ResumeTarget& target) {
    static const std::regex gtidText("^[0-9]+-[0-9]+-[0-9]+(,[0-9]+-[0-9]+-[0-9]+)*$");
    if (auto refused = refusal(connectionName, "change master")) {
        return *refused;
    }
    const std::string literal = connectionLiteral(connectionName);
    std::vector<std::string> statements{"STOP SLAVE " + literal};
    std::string after;
    if (!target.gtid.empty()) {
        if (!std::regex_match(target.gtid, gtidText)) {
            return {false, "'" + target.gtid + "' is not a MariaDB GTID position such as 0-1-100,1-2-5"};
        }
        statements.push_back("SET GLOBAL gtid_slave_pos = '" + target.gtid + "'");
        statements.push_back("CHANGE MASTER " + literal + " TO MASTER_USE_GTID = slave_pos");
        after = "gtid " + target.gtid;
    } else {
        if (!binlog::BinlogPosition::isBinlogFileName(target.file) ||
            target.file.find_first_of("'\\") != std::string::npos) {
            return {false, "'" + target.file + "' is not a binlog file name such as mariadb-bin.000003"};
        }
        if (auto problem = positionProblem(connectionName, target)) {
            return {false, *problem};
        }
        statements.push_back("CHANGE MASTER " + literal + " TO MASTER_LOG_FILE = '" + target.file +
                             "', MASTER_LOG_POS = " + std::to_string(target.pos) + ", MASTER_USE_GTID = no");
        after = target.file + ":" + std::to_string(target.pos);
    }
    statements.push_back("START SLAVE " + literal);
    return run("replica-change-master", connectionName, statements, after, {});
}

}  // namespace syncscope::replica
