# MariaDB's own replicas: SHOW ALL SLAVES STATUS, the failing event decoded, the replica's commands.
syncscope_engine_part(replica USES source task PRIVATE_LINKS PkgConfig::MARIADB)
