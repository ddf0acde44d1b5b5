# engine/load: the snapshot load of task-mode all/full (consistent snapshot, chunk plan, parallel copy, loader
# checkpoint). Read by engine/CMakeLists.txt before engine/task, which runs it as the task's load stage.
syncscope_engine_part(load USES source filter apply PRIVATE_LINKS PkgConfig::MARIADB mysqlcppconn::mysqlcppconn)
