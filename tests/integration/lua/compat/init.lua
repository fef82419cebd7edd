INIT = "init file ran"
print(INIT)
