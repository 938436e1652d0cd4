"""Heavy work off the web request: the job workflow and task (workflow), and the imports, exports and prints it runs (files)."""
