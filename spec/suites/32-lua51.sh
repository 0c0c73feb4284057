# The busted specs (spec/*_spec.lua) under PUC Lua 5.1, against ${BUILD:-build}/lua51/collide2d.so.
exec sh spec/support/busted.sh lua5.1 lua51
