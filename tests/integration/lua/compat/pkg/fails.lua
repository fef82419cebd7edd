error("module fails on purpose")
