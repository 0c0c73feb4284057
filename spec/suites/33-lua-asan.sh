# The busted specs under Lua 5.4 against ${BUILD:-build}/lua54-asan/collide2d.so: the module and the
# core built with AddressSanitizer and UBSan, so that a memory error or a leak reached from Lua fails.
exec sh spec/support/busted.sh lua5.4 lua54-asan asan
