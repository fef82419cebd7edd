-- The arg table and the script's varargs.
local lo = 0
while arg[lo - 1] do lo = lo - 1 end
for i = lo, #arg do print(i, arg[i]) end
print("varargs", select("#", ...), ...)
