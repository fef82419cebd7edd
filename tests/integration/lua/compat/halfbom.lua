ï»return 1
