/*
 * worlds.c - worlds from Lua: creating and destroying one, and its membership: adding, removing and
 * updating shapes, their user values, filter bits, one-way directions and motions.
 *
 * A world holds Lua values: its entries' shapes and user values live in two tables, the world
 * userdata's user values, keyed by the entry's key: a number that grows with every add and is also the
 * entry's C user value, so the world's order is the order of adding. A shape's box records the one
 * world it is in (its id and key there), so membership tests need no table lookup.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "binding.h"

/* ---- worlds ---------------------------------------------------------------------------------- */

static world_box *toworldbox(lua_State *L, int idx)
{
    return (world_box *)tobox(L, idx, WORLD_MT, sizeof(world_box));
}

static world_box *checkworldbox(lua_State *L, int idx)
{
    world_box *b = toworldbox(L, idx);
    if (b == NULL)
        luaL_typeerror(L, idx, WORLD_NAME);
    return b;
}

world_box *checkworld(lua_State *L, int idx)
{
    world_box *b = checkworldbox(L, idx);
    if (b->world == NULL)
        luaL_error(L, "attempt to use a destroyed world");
    return b;
}

/* The shape at arg, which must be in the world wb. */
static shape_box *checkmember(lua_State *L, int arg, const world_box *wb)
{
    shape_box *sb = checkshapebox(L, arg);
    if (sb->shape == NULL)
        luaL_error(L, "attempt to use a destroyed shape");
    if (sb->world != wb)
        luaL_error(L, "shape is not in this world");
    return sb;
}

/* Pushes the world's shape and value tables (w: the world's absolute index); returns the index of
 * the first. */
int push_tables(lua_State *L, int w)
{
    lua_getiuservalue(L, w, UV_SHAPES);
    lua_getiuservalue(L, w, UV_VALUES);
    return lua_gettop(L) - 1;
}

void free_buffers(world_box *wb)
{
    free(wb->buf);
    free(wb->cbuf);
    wb->buf = NULL;
    wb->cbuf = NULL;
    wb->bufsize = wb->cbufsize = 0;
}

/* Takes the shape out of its world: the C entry, the world's table entries (when w, the world's
 * stack index, is given, or the world can still be found: not while it is being finalized), and the
 * shape's record of it. */
void leave_world(lua_State *L, shape_box *b, int w)
{
    world_box *wb = b->world;
    int top = lua_gettop(L), t;
    luaL_checkstack(L, 4, "too many nested calls");
    b->world = NULL;
    if (wb == NULL || wb->world == NULL)
        return;
    c2d_world_remove(wb->world, b->id);
    if (w == 0) {
        lua_pushlightuserdata(L, wb);
        lua_rawget(L, WORLDS);
        if (toworldbox(L, -1) != wb) {
            lua_settop(L, top);
            return;
        }
        w = lua_gettop(L);
    }
    t = push_tables(L, w);
    if (lua_istable(L, t) && lua_istable(L, t + 1)) {
        lua_pushnil(L);
        compat_setkey(L, t, b->key);
        lua_pushnil(L);
        compat_setkey(L, t + 1, b->key);
    }
    lua_settop(L, top);
}

/* Frees the C world and clears the membership of its shapes (w: the world's absolute index). */
static void free_world(lua_State *L, world_box *wb, int w)
{
    if (wb->world != NULL) {
        luaL_checkstack(L, 4, "too many nested calls");
        lua_getiuservalue(L, w, UV_SHAPES);
        if (lua_istable(L, -1)) {
            lua_pushnil(L);
            while (lua_next(L, -2)) {
                shape_box *sb = toshapebox(L, -1);
                if (sb != NULL && sb->world == wb)
                    sb->world = NULL;
                lua_pop(L, 1);
            }
        }
        lua_pop(L, 1);
        c2d_world_destroy(wb->world);
        wb->world = NULL;
        if (wb->level != NULL)
            wb->level->levels--;
        wb->level = NULL;
        lua_pushlightuserdata(L, wb);
        lua_pushnil(L);
        lua_rawset(L, WORLDS);
    }
    /* A call still reading the buffers (its table filling ran a finalizer that destroyed the world)
     * frees them when it is done; the collector's call frees them in any case. */
    if (wb->reading == 0)
        free_buffers(wb);
}

/* world:destroy(), also __close: frees the world now (not its shapes, which leave it); safe to call
 * any number of times, but not from inside one of the world's own callbacks. */
int w_destroy(lua_State *L)
{
    world_box *wb = checkworldbox(L, 1);
    if (wb->busy > 0)
        return luaL_error(L, "attempt to destroy a world from inside one of its callbacks");
    free_world(L, wb, 1);
    lua_pushnil(L);
    lua_setiuservalue(L, 1, UV_SHAPES);
    lua_pushnil(L);
    lua_setiuservalue(L, 1, UV_VALUES);
    lua_pushnil(L);
    lua_setiuservalue(L, 1, UV_LEVEL);
    return 0;
}

/* __gc: as destroy, without raising. The collector only finalizes an unreachable world, which no call
 * can be using; a direct call from inside one of the world's callbacks is ignored. */
int w_gc(lua_State *L)
{
    world_box *wb = checkworldbox(L, 1);
    if (wb->busy > 0)
        return 0;
    free_world(L, wb, 1);
    free_buffers(wb);
    return 0;
}

/* "collide2d.world (12 shapes, 0x...)" or "collide2d.world (destroyed)". */
int w_tostring(lua_State *L)
{
    world_box *wb = checkworldbox(L, 1);
    int n = 0;
    if (wb->world == NULL) {
        lua_pushliteral(L, WORLD_NAME " (destroyed)");
        return 1;
    }
    c2d_world_count(wb->world, &n);
    lua_pushfstring(L, WORLD_NAME " (%d shapes, %p)", n, (void *)wb->world);
    return 1;
}

/* A new world, from collide2d.world([{margin = n, relativeMargin = n}]). */
static int world_new(lua_State *L)
{
    double margin = 0.0, relative = 0.1;
    world_box *wb;
    c2d_status st;
    if (!lua_isnoneornil(L, 1)) {
        if (!lua_istable(L, 1))
            return luaL_typeerror(L, 1, "table");
        lua_getfield(L, 1, "margin");
        if (!lua_isnil(L, -1)) {
            if (lua_type(L, -1) != LUA_TNUMBER)
                field_typeerror(L, 1, "margin", "number");
            margin = lua_tonumber(L, -1);
        }
        lua_getfield(L, 1, "relativeMargin");
        if (!lua_isnil(L, -1)) {
            if (lua_type(L, -1) != LUA_TNUMBER)
                field_typeerror(L, 1, "relativeMargin", "number");
            relative = lua_tonumber(L, -1);
        }
        lua_pop(L, 2);
    }
    lua_settop(L, 1);
    wb = (world_box *)lua_newuserdatauv(L, sizeof(world_box), 3);
    memset(wb, 0, sizeof *wb);
    wb->next_key = 1;
    lua_pushvalue(L, WORLD_MT);
    lua_setmetatable(L, 2);
    lua_newtable(L);
    lua_setiuservalue(L, 2, UV_SHAPES);
    lua_newtable(L);
    lua_setiuservalue(L, 2, UV_VALUES);
    CHECK(L, c2d_world_new(&wb->world), 1, "");
    st = c2d_world_set_margin(wb->world, margin, relative);
    if (st != C2D_OK) {
        int bad_margin = !isfinite(margin) || margin < 0 || margin > C2D_MAX_COORDINATE;
        return field_error(L, 1, bad_margin ? "margin" : "relativeMargin", c2d_status_string(st));
    }
    lua_pushlightuserdata(L, wb);
    lua_pushvalue(L, 2);
    lua_rawset(L, WORLDS);
    return 1;
}

/* collide2d.world([opts]) -> a new world; shape:world() (collide2d.world(shape)) -> the world the
 * shape is in, or nil. */
int l_world(lua_State *L)
{
    shape_box *sb = toshapebox(L, 1);
    if (sb == NULL)
        return world_new(L);
    if (sb->shape == NULL)
        return luaL_error(L, "attempt to use a destroyed shape");
    if (sb->world == NULL) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushlightuserdata(L, sb->world);
    lua_rawget(L, WORLDS);
    return 1;
}

/* world:add(shape [, value]) -> shape. */
int w_add(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    shape_box *sb = checkshapebox(L, 2);
    uintptr_t key = wb->next_key;
    c2d_world_id id;
    c2d_status st;
    int t;
    if (sb->shape == NULL)
        return luaL_error(L, "attempt to use a destroyed shape");
    if (sb->world == wb)
        return luaL_error(L, "shape is already in this world");
    if (sb->world != NULL)
        return luaL_error(L, "shape is already in another world");
    lua_settop(L, 3);
    t = push_tables(L, 1);
    lua_pushvalue(L, 2);
    compat_setkey(L, t, key);
    lua_pushvalue(L, 3);
    compat_setkey(L, t + 1, key);
    st = c2d_world_add(wb->world, sb->shape, key, &id);
    if (st != C2D_OK) {
        lua_pushnil(L);
        compat_setkey(L, t, key);
        lua_pushnil(L);
        compat_setkey(L, t + 1, key);
        return status_error(L, st, 2, "-");
    }
    wb->next_key++;
    sb->world = wb;
    sb->id = id;
    sb->key = key;
    lua_settop(L, 2);
    return 1;
}

/* world:remove(shape): the shape leaves the world (it is not destroyed). */
int w_remove(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    leave_world(L, checkmember(L, 2, wb), 1);
    return 0;
}

/* world:update(shape): the shape moved or turned; no garbage. */
int w_update(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    CHECK(L, c2d_world_update(wb->world, checkmember(L, 2, wb)->id), 2, "");
    return 0;
}

/* world:has(shape) -> boolean. */
int w_has(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    lua_pushboolean(L, checkshapebox(L, 2)->world == wb);
    return 1;
}

/* world:count() -> the number of shapes in the world. */
int w_count(lua_State *L)
{
    int n;
    CHECK(L, c2d_world_count(checkworld(L, 1)->world, &n), 1, "");
    lua_pushinteger(L, n);
    return 1;
}

/* world:value(shape) -> the shape's user value. */
int w_value(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    shape_box *sb = checkmember(L, 2, wb);
    lua_getiuservalue(L, 1, UV_VALUES);
    compat_getkey(L, lua_gettop(L), sb->key);
    return 1;
}

/* world:setValue(shape, value) -> shape. */
int w_setvalue(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    shape_box *sb = checkmember(L, 2, wb);
    lua_settop(L, 3);
    lua_getiuservalue(L, 1, UV_VALUES);
    lua_pushvalue(L, 3);
    compat_setkey(L, 4, sb->key);
    lua_settop(L, 2);
    return 1;
}

/* Filter bits: an integer from 0 to 0xFFFFFFFF. */
static unsigned checkbits(lua_State *L, int arg)
{
    lua_Number v = luaL_checknumber(L, arg);
    if (!(v >= 0 && v <= 4294967295.0 && v == floor(v)))
        luaL_argerror(L, arg, "integer from 0 to 0xFFFFFFFF expected");
    return (unsigned)v;
}

/* world:setBits(shape, category, mask) -> shape. */
int w_setbits(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    shape_box *sb = checkmember(L, 2, wb);
    unsigned category = checkbits(L, 3), mask = checkbits(L, 4);
    CHECK(L, c2d_world_set_bits(wb->world, sb->id, category, mask), 2, "");
    lua_settop(L, 2);
    return 1;
}

/* world:setOneWay(shape, dx, dy) -> shape: the shape's entry blocks world moves and ball steps only
 * from the side (dx, dy) points to; world:setOneWay(shape) makes it solid from every side again. */
int w_setoneway(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    shape_box *sb = checkmember(L, 2, wb);
    c2d_vec2 d = checkdirection(L, 3);
    CHECK(L, c2d_world_set_one_way(wb->world, sb->id, d), 3, "cc");
    lua_settop(L, 2);
    return 1;
}

/* world:oneWay(shape) -> dx, dy, or nil when the entry blocks from every side. */
int w_oneway(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    shape_box *sb = checkmember(L, 2, wb);
    c2d_vec2 d;
    CHECK(L, c2d_world_get_one_way(wb->world, sb->id, &d), 2, "");
    if (d.x == 0 && d.y == 0) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushnumber(L, d.x);
    lua_pushnumber(L, d.y);
    return 2;
}

/* world:setMotion(shape, vx, vy, w [, px, py]) -> shape: the shape's entry moves at (vx, vy) and turns at
 * w radians per unit of time about its own point (px, py) (in its own frame; default its position)
 * during world moves and ball steps, as set:setMotion does for a static set's shape. */
int w_setmotion(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    shape_box *sb = checkmember(L, 2, wb);
    c2d_motion m = checkmotion(L, 3, 0);
    CHECK(L, c2d_world_set_motion(wb->world, sb->id, &m), 3, "ccccc");
    lua_settop(L, 2);
    return 1;
}

/* world:motion(shape) -> vx, vy, w, px, py. */
int w_motion(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    shape_box *sb = checkmember(L, 2, wb);
    c2d_motion m;
    CHECK(L, c2d_world_get_motion(wb->world, sb->id, &m), 2, "");
    return pushmotion(L, &m);
}

/* world:setVelocity(shape, vx, vy) -> shape: the entry's velocity during world moves and ball steps, its
 * turn kept, as set:setVelocity is for a static set's shape. */
int w_setvelocity(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    shape_box *sb = checkmember(L, 2, wb);
    double vx = luaL_checknumber(L, 3), vy = luaL_checknumber(L, 4);
    CHECK(L, c2d_world_set_velocity(wb->world, sb->id, vec(vx, vy)), 3, "cc");
    lua_settop(L, 2);
    return 1;
}

/* world:velocity(shape) -> vx, vy. */
int w_velocity(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    shape_box *sb = checkmember(L, 2, wb);
    c2d_vec2 v;
    CHECK(L, c2d_world_get_velocity(wb->world, sb->id, &v), 2, "");
    lua_pushnumber(L, v.x);
    lua_pushnumber(L, v.y);
    return 2;
}

/* world:setEnabled(shape, enabled) -> shape: a disabled shape stays in the world but no query, ray
 * cast, pair, move or ball step sees it until it is enabled again, as set:setEnabled does. */
int w_setenabled(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    shape_box *sb = checkmember(L, 2, wb);
    luaL_checktype(L, 3, LUA_TBOOLEAN);
    CHECK(L, c2d_world_set_enabled(wb->world, sb->id, lua_toboolean(L, 3)), 2, "");
    lua_settop(L, 2);
    return 1;
}

/* world:isEnabled(shape) -> boolean. */
int w_isenabled(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    shape_box *sb = checkmember(L, 2, wb);
    int on;
    CHECK(L, c2d_world_get_enabled(wb->world, sb->id, &on), 2, "");
    lua_pushboolean(L, on);
    return 1;
}

/* world:bits(shape) -> category, mask. */
int w_bits(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    shape_box *sb = checkmember(L, 2, wb);
    unsigned category, mask;
    CHECK(L, c2d_world_get_bits(wb->world, sb->id, &category, &mask), 2, "");
    push_uint(L, category);
    push_uint(L, mask);
    return 2;
}

/* world:optimize(): rebuilds the broadphase tree (after adding many shapes that will not move). */
int w_optimize(lua_State *L)
{
    CHECK(L, c2d_world_optimize(checkworld(L, 1)->world), 1, "");
    return 0;
}

/* world:setLevel(set or nil) -> world: the static set the world's moves, ball steps, casts and push-outs
 * meet beside its shapes (nil: none). The world keeps the set alive; the set refuses set:destroy()
 * while a world holds it. */
int w_setlevel(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    set_box *level = lua_isnoneornil(L, 2) ? NULL : checkset(L, 2);
    if (wb->busy > 0)
        return luaL_error(L, "attempt to change a world's level from inside one of its callbacks");
    CHECK(L, c2d_world_set_level(wb->world, level ? level->set : NULL), 1, "-");
    if (level != NULL)
        level->levels++;
    if (wb->level != NULL)
        wb->level->levels--;
    wb->level = level;
    lua_settop(L, 2);
    if (level == NULL) {
        lua_pushnil(L);
        lua_replace(L, 2);
    }
    lua_setiuservalue(L, 1, UV_LEVEL);
    lua_settop(L, 1);
    return 1;
}

/* world:level() -> the world's level (a static set), or nil. */
int w_level(lua_State *L)
{
    checkworld(L, 1);
    lua_getiuservalue(L, 1, UV_LEVEL);
    return 1;
}
