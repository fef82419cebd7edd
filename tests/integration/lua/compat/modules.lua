-- require chains, init.lua, the loader's second value, package.loaded.
package.path = "./?.lua;./?/init.lua"
local a, where = require("pkg.a")
print("a", a.name, a.b.name, where)
print("again", require("pkg.a") == a)
local tree, where2 = require("tree")
print("tree", tree.deep.name, where2)
print("loaded", package.loaded["pkg.b"].name, package.loaded["tree.deep"].name)
print("searchpath", package.searchpath("pkg.b", package.path))
print("searchpath missing", package.searchpath("pkg.none", "./?.lua;./?.luac"))
local ok, err = pcall(require, "pkg.none")
print("missing", ok, err)
ok, err = pcall(require, "pkg.syntax")
print("syntax", ok, err)
ok, err = pcall(require, "pkg.fails")
print("fails", ok, err)
package.path = 42
ok, err = pcall(require, "pkg.other")
print("number path", ok, err)
package.path = {}
ok, err = pcall(require, "pkg.other")
print("table path", ok, err)
