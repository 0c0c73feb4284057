/*
 * compat.h - every difference between the Lua versions the binding is built against, in one place,
 * keyed on LUA_VERSION_NUM: the binding is written against the Lua 5.4 API, and against Lua 5.1 headers
 * (PUC 5.1, and LuaJIT 2.1, whose headers report 5.1 but declare some 5.2 calls) this header supplies
 * what is missing, under the same names. Nothing else in lua/ tests the Lua version but the switch for
 * the LuaJIT fast path, which only a 5.1 build has.
 */
#ifndef C2D_LUA_COMPAT_H
#define C2D_LUA_COMPAT_H

#include <stdint.h>

#include "lauxlib.h"
#include "lua.h"

#if LUA_VERSION_NUM < 502
/* LuaJIT 2.1's headers declare a luaL_setfuncs of their own; the compat_ name keeps ours apart. */
static inline void compat_setfuncs(lua_State *L, const luaL_Reg *l, int nup)
{
    luaL_checkstack(L, nup + 1, "too many upvalues");
    for (; l->name != NULL; l++) {
        int i;
        for (i = 0; i < nup; i++)
            lua_pushvalue(L, -nup);
        lua_pushcclosure(L, l->func, nup);
        lua_setfield(L, -(nup + 2), l->name);
    }
    lua_pop(L, nup);
}
#define luaL_setfuncs compat_setfuncs
#define lua_rawlen lua_objlen
#endif
#if LUA_VERSION_NUM < 504
/* 5.1 calls it luaL_typerror and 5.2/5.3 have none; 5.4's message has this same format, and names what
 * it got as 5.4 does: by its metatable's __name (a shape passed where a static set was expected is
 * "collide2d.shape", not "userdata"). */
static inline int compat_typeerror(lua_State *L, int arg, const char *tname)
{
    const char *got;
    if (luaL_getmetafield(L, arg, "__name") && lua_type(L, -1) == LUA_TSTRING)
        got = lua_tostring(L, -1);
    else if (lua_type(L, arg) == LUA_TLIGHTUSERDATA)
        got = "light userdata";
    else
        got = luaL_typename(L, arg);
    return luaL_argerror(L, arg, lua_pushfstring(L, "%s expected, got %s", tname, got));
}
#define luaL_typeerror compat_typeerror
/* Lua values attached to a userdata: 5.4 has numbered user values; 5.1 (and 5.2/5.3) one table, the
 * environment (user value), that holds them as [1], [2], ... */
#if LUA_VERSION_NUM < 502
#define compat_getenv lua_getfenv
#define compat_setenv lua_setfenv
#else
#define compat_getenv lua_getuservalue
#define compat_setenv lua_setuservalue
#endif
static inline void *compat_newuserdatauv(lua_State *L, size_t size, int nuv)
{
    void *p = lua_newuserdata(L, size);
    lua_createtable(L, nuv, 0);
    compat_setenv(L, -2);
    return p;
}
static inline int compat_getiuservalue(lua_State *L, int idx, int n)
{
    compat_getenv(L, idx);
    lua_rawgeti(L, -1, n);
    lua_remove(L, -2);
    return lua_type(L, -1);
}
/* Pops a value and stores it as user value n of the userdata at the absolute index idx. */
static inline int compat_setiuservalue(lua_State *L, int idx, int n)
{
    compat_getenv(L, idx);
    lua_insert(L, -2);
    lua_rawseti(L, -2, n);
    lua_pop(L, 1);
    return 1;
}
#define lua_newuserdatauv compat_newuserdatauv
#define lua_getiuservalue compat_getiuservalue
#define lua_setiuservalue compat_setiuservalue
/* Filter bits up to 0xFFFFFFFF: a 5.1 lua_Integer (ptrdiff_t) may have only 32 bits. */
#define push_uint(L, v) lua_pushnumber(L, (lua_Number)(v))
#else
#define push_uint(L, v) lua_pushinteger(L, (lua_Integer)(v))
#endif
/* A world's tables are keyed by numbers up to 2^53; 5.1's lua_rawgeti and lua_rawseti take an int.
 * t is an absolute index; compat_setkey pops the value. (Not setkey: macOS's stdlib.h declares a
 * setkey, the POSIX crypt function.) */
#if LUA_VERSION_NUM < 503
static inline void compat_getkey(lua_State *L, int t, uintptr_t key)
{
    lua_pushnumber(L, (lua_Number)key);
    lua_rawget(L, t);
}
static inline void compat_setkey(lua_State *L, int t, uintptr_t key)
{
    lua_pushnumber(L, (lua_Number)key);
    lua_insert(L, -2);
    lua_rawset(L, t);
}
#else
#define compat_getkey(L, t, key) ((void)lua_rawgeti(L, t, (lua_Integer)(key)))
#define compat_setkey(L, t, key) lua_rawseti(L, t, (lua_Integer)(key))
#endif

#endif
