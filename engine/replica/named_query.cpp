#include "engine/replica/named_query.h"

#include <mysql.h>

#include <memory>

namespace syncscope::replica {

NamedRows queryWithColumnNames(source::UpstreamConnection& connection, const std::string& sql) {
    MYSQL* mysql = connection.handle();
    auto fail = [&](const std::string& what) {
        throw source::UpstreamError(
            connection.settings().describe() + ": " + what + " (" + sql + "): " + mysql_error(mysql),
            mysql_errno(mysql));
    };
    if (mysql_real_query(mysql, sql.data(), sql.size()) != 0) {
        fail("query failed");
    }
    std::unique_ptr<MYSQL_RES, void (*)(MYSQL_RES*)> result(mysql_store_result(mysql), mysql_free_result);
    NamedRows named;
    if (!result) {
        if (mysql_field_count(mysql) != 0) {
            fail("reading the result failed");
        }
        return named;
    }
    const unsigned columns = mysql_num_fields(result.get());
    MYSQL_FIELD* fields = mysql_fetch_fields(result.get());
    for (unsigned i = 0; i < columns; ++i) {
        named.columns.emplace_back(fields[i].name, fields[i].name_length);
    }
    while (MYSQL_ROW row = mysql_fetch_row(result.get())) {
        unsigned long* lengths = mysql_fetch_lengths(result.get());
        source::Row values;
        values.reserve(columns);
        for (unsigned i = 0; i < columns; ++i) {
            values.emplace_back(row[i] == nullptr ? std::nullopt
                                                  : std::optional<std::string>(std::string(row[i], lengths[i])));
        }
        named.rows.push_back(std::move(values));
    }
    return named;
}

}  // namespace syncscope::replica
