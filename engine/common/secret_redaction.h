// Passwords written into SQL never reach a log, an API answer or a screen: the string literal a
// statement gives as a secret is replaced by '<redacted>' (CREATE/ALTER USER ... IDENTIFIED BY, IDENTIFIED
// WITH/VIA plugin AS/USING, PASSWORD('...'), SET PASSWORD ... = '...', GRANT ... IDENTIFIED BY, CHANGE
// MASTER ... MASTER_PASSWORD = '...', CHANGE REPLICATION SOURCE ... SOURCE_PASSWORD = '...', CREATE SERVER
// ... OPTIONS (PASSWORD '...')). The secret literal's own quotes and escapes are read as the server
// reads them; the text around it may be a log line's prose.
#pragma once

#include <string>
#include <string_view>

namespace syncscope {

inline constexpr std::string_view kRedacted = "'<redacted>'";

// Whether `text` may hold a secret at all (a cheap test before redactSecrets).
bool mayHoldSecret(std::string_view text);

// `text` with every secret literal replaced by kRedacted; the text unchanged when it holds none.
std::string redactSecrets(std::string_view text);

}  // namespace syncscope
