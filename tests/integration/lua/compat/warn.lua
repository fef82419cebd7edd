warn("a warning")
warn("@on")
warn("now shown")
