# The precheck (syncscope-cli check, the GUI's precheck dialog): reads both servers for a task's setup.
syncscope_engine_part(precheck USES task PRIVATE_LINKS mysqlcppconn::mysqlcppconn)
