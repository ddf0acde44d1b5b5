#include "engine/source/upstream_connection.h"

// clang-format off
#include <mysql.h>
#include <mysqld_error.h>
#include <errmsg.h>
// clang-format on

#include <fstream>

namespace syncscope::source {

namespace {

std::string hintFor(unsigned code) {
    switch (code) {
        case ER_ACCESS_DENIED_ERROR:
        case ER_DBACCESS_DENIED_ERROR:
            return "check the user name and password of the upstream";
        case CR_CONN_HOST_ERROR:
        case CR_CONNECTION_ERROR:
        case CR_UNKNOWN_HOST:
            return "check that the upstream runs and that host and port are right";
        case ER_SPECIFIC_ACCESS_DENIED_ERROR:
        case ER_TABLEACCESS_DENIED_ERROR:
            return "grant the replication user REPLICATION SLAVE, BINLOG MONITOR and SELECT";
        default:
            return {};
    }
}

bool isTlsFailure(unsigned code, const std::string& message) {
    return code == CR_SSL_CONNECTION_ERROR || message.find("SSL") != std::string::npos ||
           message.find("TLS") != std::string::npos;
}

// Connector/C reports an unreadable certificate file as a bare TLS error; name the file instead.
void requireReadableTlsFiles(const ServerSettings& settings) {
    for (const auto& [key, file] : {std::pair{"ssl-ca", &settings.tls.caFile},
                                    {"ssl-cert", &settings.tls.certFile},
                                    {"ssl-key", &settings.tls.keyFile}}) {
        if (!file->empty() && !std::ifstream(*file)) {
            throw UpstreamError("upstream " + settings.describe() + ": cannot read the TLS file " + key + " '" + *file +
                                    "' (key from.security." + key + " of the source file)",
                                0);
        }
    }
}

}  // namespace

UpstreamConnection::UpstreamConnection(const ServerSettings& settings)
    : settings_(settings), mysql_(mysql_init(nullptr), mysql_close) {
    if (!mysql_) {
        throw UpstreamError("upstream " + settings_.describe() + ": out of memory creating a client handle", 0);
    }
    MYSQL* m = mysql_.get();
    unsigned connectTimeout = static_cast<unsigned>(settings_.connectTimeoutSeconds);
    unsigned readTimeout = static_cast<unsigned>(settings_.readTimeoutSeconds);
    mysql_optionsv(m, MYSQL_OPT_CONNECT_TIMEOUT, &connectTimeout);
    mysql_optionsv(m, MYSQL_OPT_READ_TIMEOUT, &readTimeout);
    mysql_optionsv(m, MYSQL_OPT_WRITE_TIMEOUT, &readTimeout);
    mysql_optionsv(m, MYSQL_SET_CHARSET_NAME, "utf8mb4");
    if (settings_.tls.enabled()) {
        requireReadableTlsFiles(settings_);
        mysql_ssl_set(m, settings_.tls.keyFile.empty() ? nullptr : settings_.tls.keyFile.c_str(),
                      settings_.tls.certFile.empty() ? nullptr : settings_.tls.certFile.c_str(),
                      settings_.tls.caFile.empty() ? nullptr : settings_.tls.caFile.c_str(), nullptr, nullptr);
        my_bool verify = 1;
        mysql_optionsv(m, MYSQL_OPT_SSL_VERIFY_SERVER_CERT, &verify);
    }
    if (mysql_real_connect(m, settings_.host.c_str(), settings_.user.c_str(), settings_.password.c_str(), nullptr,
                           static_cast<unsigned>(settings_.port), nullptr, CLIENT_MULTI_RESULTS) == nullptr) {
        fail("cannot connect");
    }
}

UpstreamConnection::~UpstreamConnection() = default;

void UpstreamConnection::fail(const std::string& what) const {
    MYSQL* m = mysql_.get();
    unsigned code = mysql_errno(m);
    std::string message =
        "upstream " + settings_.describe() + ": " + what + ": " + mysql_error(m) + " [" + std::to_string(code) + "]";
    std::string hint = hintFor(code);
    if (settings_.tls.enabled() && isTlsFailure(code, mysql_error(m))) {
        hint = "TLS with " + settings_.tls.describe() +
               " failed: check that ssl-ca is the CA that signed the upstream's certificate, that the certificate "
               "names the host " +
               settings_.host + ", and that ssl-cert and ssl-key are a pair the upstream's CA accepts";
    } else if (code == ER_ACCESS_DENIED_ERROR && !settings_.tls.enabled()) {
        hint +=
            " (a server with require_secure_transport=ON also refuses clients without TLS: then set the "
            "security keys ssl-ca, ssl-cert, ssl-key)";
    }
    if (!hint.empty()) {
        message += "; " + hint;
    }
    throw UpstreamError(message, code);
}

void UpstreamConnection::execute(const std::string& sql) {
    if (mysql_real_query(mysql_.get(), sql.data(), sql.size()) != 0) {
        fail("query failed (" + sql + ")");
    }
    while (MYSQL_RES* result = mysql_store_result(mysql_.get())) {
        mysql_free_result(result);
        if (mysql_next_result(mysql_.get()) != 0) {
            break;
        }
    }
}

std::vector<Row> UpstreamConnection::query(const std::string& sql) {
    if (mysql_real_query(mysql_.get(), sql.data(), sql.size()) != 0) {
        fail("query failed (" + sql + ")");
    }
    std::unique_ptr<MYSQL_RES, void (*)(MYSQL_RES*)> result(mysql_store_result(mysql_.get()), mysql_free_result);
    std::vector<Row> rows;
    if (!result) {
        if (mysql_field_count(mysql_.get()) != 0) {
            fail("reading the result failed (" + sql + ")");
        }
        return rows;
    }
    unsigned columns = mysql_num_fields(result.get());
    while (MYSQL_ROW row = mysql_fetch_row(result.get())) {
        unsigned long* lengths = mysql_fetch_lengths(result.get());
        Row values;
        values.reserve(columns);
        for (unsigned i = 0; i < columns; ++i) {
            if (row[i] == nullptr) {
                values.emplace_back(std::nullopt);
            } else {
                values.emplace_back(std::string(row[i], lengths[i]));
            }
        }
        rows.push_back(std::move(values));
    }
    return rows;
}

std::optional<std::string> UpstreamConnection::queryValue(const std::string& sql) {
    auto rows = query(sql);
    if (rows.empty() || rows.front().empty()) {
        return std::nullopt;
    }
    return rows.front().front();
}

}  // namespace syncscope::source
