return "after the bom"
