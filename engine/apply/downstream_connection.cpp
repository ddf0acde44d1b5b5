#include "engine/apply/downstream_connection.h"

#include <cppconn/connection.h>
#include <cppconn/exception.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>
#include <mysql_driver.h>

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

}  // namespace

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
        throw DownstreamError("target database " + settings.describe() + ": cannot connect: " + e.what() + " [" +
                                  std::to_string(e.getErrorCode()) + "]" +
                                  connectHint(settings, e.getErrorCode(), e.what()),
                              e.getErrorCode());
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
