return { name = "deep " .. select(2, ...) }
