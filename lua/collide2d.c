/*
 * collide2d.c - the Lua binding's entry point: `require "collide2d"` in Lua 5.4, PUC Lua 5.1, LuaJIT
 * and LÖVE 11. luaopen_collide2d builds the module table and the metatables from the registration
 * tables below; the functions live in the other files of lua/, one concern a file (lua/binding.h
 * declares what they share).
 *
 * Thin on purpose: the binding checks arguments, converts between Lua values and the structs of the
 * public C API (include/collide2d.h) and calls it; every piece of geometry lives in the core, which is
 * compiled into the module so that one collide2d.so is all a game needs. The sources of lua/ are built
 * twice, into one module each time, against Lua 5.4 and against Lua 5.1 headers (the build LuaJIT and
 * LÖVE load); every difference between those versions lives in lua/compat.h.
 *
 * Hot paths (collide, overlaps, contains, raycast, move, rotate, sweeps, moves, ball steps, world
 * updates and queries into reused tables, ...) return plain numbers and booleans or fill the caller's
 * tables, so they create no Lua garbage.
 */
#include "binding.h"

#if defined(__GNUC__)
#define C2D_LUA_EXPORT __attribute__((visibility("default")))
#else
#define C2D_LUA_EXPORT
#endif

C2D_LUA_EXPORT int luaopen_collide2d(lua_State *L);

/* The module table is also the metatable's __index, so shape:collide(other) is collide(shape, other),
 * shape:sweep(dx, dy, other) is sweep(shape, dx, dy, other) and shape:world() is world(shape). */
static const luaL_Reg module_funcs[] = {
    {"angle", l_angle},
    {"bbox", l_bbox},
    {"box", l_box},
    {"capsule", l_capsule},
    {"chain", l_chain},
    {"circle", l_circle},
    {"clone", l_clone},
    {"closest", l_closest},
    {"collide", l_collide},
    {"concave", l_concave},
    {"contains", l_contains},
    {"destroy", l_destroy},
    {"distance", l_distance},
    {"hull", l_hull},
    {"move", l_move},
    {"overlaps", l_overlaps},
    {"part", l_part},
    {"parts", l_parts},
    {"polygon", l_polygon},
    {"position", l_position},
    {"radius", l_radius},
    {"raycast", l_raycast},
    {"rectangle", l_rectangle},
    {"rotate", l_rotate},
    {"segment", l_segment},
    {"setAngle", l_setangle},
    {"setPosition", l_setposition},
    {"setTransform", l_settransform},
    {"staticset", l_staticset},
    {"sweep", l_sweep},
    {"sweepMotion", l_sweepmotion},
    {"type", l_type},
    {"version", l_version},
    {"vertices", l_vertices},
    {"world", l_world},
    {NULL, NULL},
};

/* __gc, __close and destroy are idempotent, so an explicit destroy, a to-be-closed variable and the
 * collector can meet in any order. */
static const luaL_Reg shape_meta[] = {
    {"__close", l_destroy},
    {"__gc", m_gc},
    {"__tostring", m_tostring},
    {NULL, NULL},
};

static const luaL_Reg set_methods[] = {
    {"advance", s_advance},
    {"cast", s_cast},
    {"count", s_count},
    {"destroy", s_destroy},
    {"isEnabled", s_isenabled},
    {"isSeam", s_isseam},
    {"markNeighbours", s_markneighbours},
    {"motion", s_motion},
    {"move", s_move},
    {"moveCharacter", s_movecharacter},
    {"moveTurning", s_moveturning},
    {"oneWay", s_oneway},
    {"part", s_part},
    {"parts", s_parts},
    {"pushOut", s_pushout},
    {"queryPoint", s_querypoint},
    {"queryRect", s_queryrect},
    {"queryShape", s_queryshape},
    {"raycast", s_raycast},
    {"raycastAll", s_raycastall},
    {"setEnabled", s_setenabled},
    {"setMotion", s_setmotion},
    {"setOneWay", s_setoneway},
    {"setTransform", s_settransform},
    {"setValue", s_setvalue},
    {"setVelocity", s_setvelocity},
    {"shape", s_shape},
    {"stepBall", s_stepball},
    {"stepBalls", s_stepballs},
    {"sweep", s_sweep},
    {"transform", s_transform},
    {"value", s_value},
    {"velocity", s_velocity},
    {"vertices", s_vertices},
    {NULL, NULL},
};

static const luaL_Reg set_meta[] = {
    {"__close", s_destroy},
    {"__gc", s_gc},
    {"__tostring", s_tostring},
    {NULL, NULL},
};

static const luaL_Reg world_methods[] = {
    {"add", w_add},
    {"bits", w_bits},
    {"cast", w_cast},
    {"count", w_count},
    {"destroy", w_destroy},
    {"has", w_has},
    {"isEnabled", w_isenabled},
    {"level", w_level},
    {"motion", w_motion},
    {"move", w_move},
    {"moveCharacter", w_movecharacter},
    {"moveTurning", w_moveturning},
    {"oneWay", w_oneway},
    {"optimize", w_optimize},
    {"pairs", w_pairs},
    {"pushOut", w_pushout},
    {"queryPoint", w_querypoint},
    {"queryRect", w_queryrect},
    {"queryShape", w_queryshape},
    {"raycast", w_raycast},
    {"raycastAll", w_raycastall},
    {"remove", w_remove},
    {"setBits", w_setbits},
    {"setEnabled", w_setenabled},
    {"setLevel", w_setlevel},
    {"setMotion", w_setmotion},
    {"setOneWay", w_setoneway},
    {"setValue", w_setvalue},
    {"setVelocity", w_setvelocity},
    {"stepBall", w_stepball},
    {"stepBalls", w_stepballs},
    {"update", w_update},
    {"value", w_value},
    {"velocity", w_velocity},
    {NULL, NULL},
};

static const luaL_Reg world_meta[] = {
    {"__close", w_destroy},
    {"__gc", w_gc},
    {"__tostring", w_tostring},
    {NULL, NULL},
};

/* Pushes the NUPVALUES upvalues every function of the module closes over: the three metatables
 * (at mt, mt + 1, mt + 2) and the table of live worlds (at mt + 3). */
static void push_upvalues(lua_State *L, int mt)
{
    int i;
    for (i = 0; i < NUPVALUES; i++)
        lua_pushvalue(L, mt + i);
}

/* Fills the metatable at idx: metamethods, __name and, unless methods is NULL, an __index table of
 * methods. */
static void fill_metatable(lua_State *L, int idx, int mt, const char *name, const luaL_Reg *meta,
                           const luaL_Reg *methods)
{
    lua_pushvalue(L, idx);
    push_upvalues(L, mt);
    luaL_setfuncs(L, meta, NUPVALUES);
    if (methods != NULL) {
        lua_newtable(L);
        push_upvalues(L, mt);
        luaL_setfuncs(L, methods, NUPVALUES);
        lua_setfield(L, -2, "__index");
    }
    /* Lua 5.1's luaL_newmetatable does not set __name; 5.4's does, and setting it again is harmless. */
    lua_pushstring(L, name);
    lua_setfield(L, -2, "__name");
    lua_pop(L, 1);
}

int luaopen_collide2d(lua_State *L)
{
    int mt;
    luaL_newmetatable(L, SHAPE_NAME);
    mt = lua_gettop(L);
    luaL_newmetatable(L, SET_NAME);
    luaL_newmetatable(L, WORLD_NAME);
    /* The live worlds, found again by a second require (weak values: the table keeps no world alive). */
    lua_getfield(L, LUA_REGISTRYINDEX, WORLDS_NAME);
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_createtable(L, 0, 1);
        lua_pushliteral(L, "v");
        lua_setfield(L, -2, "__mode");
        lua_setmetatable(L, -2);
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, WORLDS_NAME);
    } /* shape-mt set-mt world-mt worlds */

    lua_pushlightuserdata(L, (void *)&new_buffer_key);
    lua_pushcfunction(L, new_buffer);
    lua_rawset(L, LUA_REGISTRYINDEX);

    lua_createtable(L, 0, (int)(sizeof module_funcs / sizeof module_funcs[0]) + 1); /* ... M */
    push_upvalues(L, mt);
    luaL_setfuncs(L, module_funcs, NUPVALUES);
    lua_pushstring(L, c2d_version_string());
    lua_setfield(L, -2, "_VERSION");

    fill_metatable(L, mt, mt, SHAPE_NAME, shape_meta, NULL);
    lua_pushvalue(L, -1);
    lua_setfield(L, mt, "__index");
    fill_metatable(L, mt + 1, mt, SET_NAME, set_meta, set_methods);
    fill_metatable(L, mt + 2, mt, WORLD_NAME, world_meta, world_methods);
#if LUA_VERSION_NUM == 501
    install_ffi(L, lua_gettop(L));
#endif
    return 1;
}
