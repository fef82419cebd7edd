return { deep = require("tree.deep") }
