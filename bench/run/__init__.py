"""Running tasks: the plan, the process pool, the task process, the fork server, measurement,
cgroups, the Dask executor, the machine's environment and the run folder's storage."""
