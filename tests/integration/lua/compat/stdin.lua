print("from stdin", arg and arg[0], ...)
