local function inner() error("raised in inner") end
inner()
