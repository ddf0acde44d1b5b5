// Times as a DBA types and reads them: 'YYYY-MM-DD HH:MM:SS' in the machine's local time zone, as
// mariadb-binlog --start-datetime reads them, against binlog event timestamps (seconds since the epoch).
// Shared by the event browser (--from a time) and the task's stop point (--until a time).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace syncscope {

// nullopt when the text is not 'YYYY-MM-DD HH:MM:SS' (or 'YYYY-MM-DD HH:MM', 'YYYY-MM-DD') or not a real time.
std::optional<uint32_t> parseLocalTime(std::string_view text);
std::string formatLocalTime(uint32_t timestamp);  // 'YYYY-MM-DD HH:MM:SS'
// "HH:MM:SS" in local time, as a lost channel says when it was last seen.
std::string clockText(std::chrono::system_clock::time_point at);

}  // namespace syncscope
