#!/usr/bin/env lua5.4

error("line three")
