return "other"
