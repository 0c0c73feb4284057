# The busted specs (spec/*_spec.lua) under LuaJIT, against ${BUILD:-build}/lua51/collide2d.so.
exec sh spec/support/busted.sh luajit lua51
