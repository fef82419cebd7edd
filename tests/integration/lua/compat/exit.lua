io.write("before exit\n")
os.exit(tonumber(arg[1]) or arg[1] == "true")
