# A SyncScope engine on another machine, shown and controlled through its HTTP control API.
syncscope_engine_part(remote USES control PRIVATE_LINKS PkgConfig::HTTPLIB)
