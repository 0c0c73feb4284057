# The busted specs (spec/*_spec.lua) under Lua 5.4, against ${BUILD:-build}/lua54/collide2d.so.
exec sh spec/support/busted.sh lua5.4 lua54
