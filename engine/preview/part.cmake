# engine/preview: what a task's skip or resume-from would leave out (or apply again), read from the task's own
# setup, for the GUI, the CLI and the HTTP API alike; the skipped rows saved as replayable SQL.
syncscope_engine_part(preview USES task browse verify control)
