#include "engine/apply/downstream_connection.h"

#include <cppconn/connection.h>
#include <cppconn/exception.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>
#include <mysql_driver.h>

// clang-format off
#include <mysql.h>
// clang-format on

#include <fstream>
#include <mutex>

#include "engine/common/server_errors.h"

namespace syncscope::apply {

namespace {

using namespace server_error;  // NOLINT: the error numbers read as in the server's docs

std::string hintFor(int code) {
    switch (code) {
        case kAccessDenied:
            return "; check the user name and password of the target database";
        case kCannotConnectLocal:
        case kCannotConnect:
        case kUnknownHost:
            return "; check that the target database runs and that host and port are right";
        default:
            return {};
    }
}

std::string connectHint(const ServerSettings& settings, int code, const std::string& message) {
    bool tlsFailure =
        code == kTlsError || message.find("SSL") != std::string::npos || message.find("TLS") != std::string::npos;
    if (settings.tls.enabled() && tlsFailure) {
        return "; TLS with " + settings.tls.describe() +
               " failed: check that ssl-ca is the CA that signed the target database's certificate, that the "
               "certificate names the host " +
               settings.host + ", and that ssl-cert and ssl-key are a pair the server's CA accepts";
    }
    std::string hint = hintFor(code);
    if (code == kAccessDenied && !settings.tls.enabled()) {
        hint +=
            " (a server with require_secure_transport=ON also refuses clients without TLS: then set the "
            "security keys ssl-ca, ssl-cert, ssl-key)";
    }
    return hint;
}

// The driver reports an unreadable certificate file as a bare TLS error; name the file instead.
void requireReadableTlsFiles(const ServerSettings& settings) {
    for (const auto& [key, file] : {std::pair{"ssl-ca", &settings.tls.caFile},
                                    {"ssl-cert", &settings.tls.certFile},
                                    {"ssl-key", &settings.tls.keyFile}}) {
        if (!file->empty() && !std::ifstream(*file)) {
            throw DownstreamError("target database " + settings.describe() + ": cannot read the TLS file " + key +
                                      " '" + *file + "' (key target-database.security." + key + " of the task file)",
                                  0);
        }
    }
}

DownstreamError cannotConnect(const ServerSettings& settings, int code, const std::string& message) {
    return DownstreamError("target database " + settings.describe() + ": cannot connect: " + message + " [" +
                               std::to_string(code) + "]" + connectHint(settings, code, message),
                           code);
}

}  // namespace

void NativeConnectionCloser::operator()(st_mysql* mysql) const noexcept {
    mysql_close(mysql);
}

NativeConnection connectDownstreamNative(const ServerSettings& settings, NativeConnectionOptions options) {
    NativeConnection connection(mysql_init(nullptr));
    if (!connection) {
        throw DownstreamError("target database " + settings.describe() + ": out of memory creating a client", 0);
    }
    MYSQL* mysql = connection.get();
    unsigned connectTimeout = static_cast<unsigned>(settings.connectTimeoutSeconds);
    unsigned readTimeout = static_cast<unsigned>(settings.readTimeoutSeconds);
    my_bool off = 0;
    unsigned localInfile = options.localInfile ? 1 : 0;
    mysql_optionsv(mysql, MYSQL_OPT_CONNECT_TIMEOUT, &connectTimeout);
    mysql_optionsv(mysql, MYSQL_OPT_READ_TIMEOUT, &readTimeout);
    mysql_optionsv(mysql, MYSQL_OPT_WRITE_TIMEOUT, &readTimeout);
    mysql_optionsv(mysql, MYSQL_SET_CHARSET_NAME, "utf8mb4");
    mysql_optionsv(mysql, MYSQL_OPT_RECONNECT, &off);
    mysql_optionsv(mysql, MYSQL_OPT_LOCAL_INFILE, &localInfile);
    if (settings.tls.enabled()) {
        requireReadableTlsFiles(settings);
        mysql_ssl_set(mysql, settings.tls.keyFile.empty() ? nullptr : settings.tls.keyFile.c_str(),
                      settings.tls.certFile.empty() ? nullptr : settings.tls.certFile.c_str(),
                      settings.tls.caFile.empty() ? nullptr : settings.tls.caFile.c_str(), nullptr, nullptr);
        my_bool verify = 1;
        mysql_optionsv(mysql, MYSQL_OPT_SSL_VERIFY_SERVER_CERT, &verify);
    }
    if (mysql_real_connect(mysql, settings.host.c_str(), settings.user.c_str(), settings.password.c_str(), nullptr,
                           static_cast<unsigned>(settings.port), nullptr,
                           options.foundRows ? CLIENT_FOUND_ROWS : 0) == nullptr) {
        throw cannotConnect(settings, static_cast<int>(mysql_errno(mysql)), mysql_error(mysql));
    }
    return connection;
}

bool takesArrayBinding(st_mysql* mysql) {
    // As MARIADB_STMT_BULK_SUPPORTED checks it, through the public getters.
    unsigned long capabilities = 0;
    unsigned long extended = 0;
    if (mariadb_get_infov(mysql, MARIADB_CONNECTION_SERVER_CAPABILITIES, &capabilities) != 0 ||
        mariadb_get_infov(mysql, MARIADB_CONNECTION_EXTENDED_SERVER_CAPABILITIES, &extended) != 0) {
        return false;
    }
    return (capabilities & CLIENT_MYSQL) == 0 && (extended & (MARIADB_CLIENT_STMT_BULK_OPERATIONS >> 32)) != 0;
}

std::unique_ptr<sql::Connection> connectDownstream(const ServerSettings& settings) {
    // The driver's first use is not thread-safe in Connector/C++ 1.1.
    static std::mutex driverMutex;
    sql::mysql::MySQL_Driver* driver = nullptr;
    {
        std::lock_guard lock(driverMutex);
        driver = sql::mysql::get_mysql_driver_instance();
    }
    sql::ConnectOptionsMap options;
    options["hostName"] = sql::SQLString(settings.host);
    options["port"] = settings.port;
    options["userName"] = sql::SQLString(settings.user);
    options["password"] = sql::SQLString(settings.password);
    options["OPT_CONNECT_TIMEOUT"] = settings.connectTimeoutSeconds;
    options["OPT_READ_TIMEOUT"] = settings.readTimeoutSeconds;
    options["OPT_WRITE_TIMEOUT"] = settings.readTimeoutSeconds;
    options["OPT_CHARSET_NAME"] = sql::SQLString("utf8mb4");
    options["CLIENT_MULTI_STATEMENTS"] = false;
    // An UPDATE reports the rows it found, not only those it changed: the apply workers count an
    // UPDATE that found no row as drift, and one that sets the values a row already has is no drift.
    options["CLIENT_FOUND_ROWS"] = true;
    if (settings.tls.enabled()) {
        requireReadableTlsFiles(settings);
        options["sslCA"] = sql::SQLString(settings.tls.caFile);
        options["sslCert"] = sql::SQLString(settings.tls.certFile);
        options["sslKey"] = sql::SQLString(settings.tls.keyFile);
        options["sslVerify"] = true;
    }
    try {
        std::unique_ptr<sql::Connection> connection(driver->connect(options));
        return connection;
    } catch (const sql::SQLException& e) {
        throw cannotConnect(settings, e.getErrorCode(), e.what());
    }
}

std::string downstreamServerVersion(const ServerSettings& settings) {
    auto connection = connectDownstream(settings);
    try {
        std::unique_ptr<sql::Statement> statement(connection->createStatement());
        std::unique_ptr<sql::ResultSet> rows(statement->executeQuery("SELECT VERSION()"));
        return rows->next() ? std::string(rows->getString(1)) : std::string("?");
    } catch (const sql::SQLException& e) {
        throw DownstreamError("downstream " + settings.describe() + ": SELECT VERSION() failed: " + e.what(),
                              e.getErrorCode());
    }
}

}  // namespace syncscope::apply
