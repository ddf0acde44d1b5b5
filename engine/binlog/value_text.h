// Text forms shared by the column-value renderings: FLOAT/DOUBLE as MariaDB prints them, the text of
// MariaDB's INET6/UUID/INET4 storage, hex, JSON string escaping and a UTF-8 validity check.
#pragma once

#include <string>
#include <string_view>

namespace syncscope::binlog {

// MariaDB's text for a DOUBLE (shortest digits that read back to the value) or a FLOAT (6 significant
// digits), in fixed notation for decimal exponents -14..15 and "1.5e20" / "1e-15" style otherwise.
void appendDoubleText(std::string& out, double value);
void appendFloatText(std::string& out, float value);

// INET6 as inet_ntop prints it ("::1", "::ffff:1.2.3.4"), INET4 dotted, UUID in 8-4-4-4-12 lowercase hex
// from MariaDB's record byte order (time-ordered segments swapped back for RFC 4122 versions 1-5).
// `stored` must be 16, 16 and 4 bytes long; otherwise these append hex.
void appendInet6Text(std::string& out, std::string_view stored);
void appendInet4Text(std::string& out, std::string_view stored);
void appendUuidText(std::string& out, std::string_view stored);

void appendHex(std::string& out, std::string_view bytes);  // lowercase, two digits a byte
bool isValidUtf8(std::string_view bytes);
void appendJsonString(std::string& out, std::string_view utf8);  // quoted and escaped

}  // namespace syncscope::binlog
