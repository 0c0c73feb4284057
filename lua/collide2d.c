/*
 * collide2d.c - the Lua binding: `require "collide2d"` in Lua 5.4, PUC Lua 5.1, LuaJIT and LÖVE 11.
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
 *
 * Worlds are userdata boxes, as shapes are. A world holds Lua values: its entries' shapes and user
 * values live in two tables, the world userdata's user values, keyed by the entry's key: a number that
 * grows with every add and is also the entry's C user value, so the world's order is the order of
 * adding. A shape's box records the one world it is in (its id and key there), so membership tests need
 * no table lookup.
 *
 * Lua callbacks (query filters, move responses) run from inside the core's C frames: each runs under
 * lua_pcall, so an error never unwinds through the core. The first error makes every later callback of
 * the call refuse, and is raised again once the core has returned. While callbacks can run, the world
 * is marked busy (it refuses to be destroyed) and the shape the core is reading is pinned (it refuses
 * to be destroyed).
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "binding.h"

#if defined(__GNUC__)
#define C2D_LUA_EXPORT __attribute__((visibility("default")))
#else
#define C2D_LUA_EXPORT
#endif

C2D_LUA_EXPORT int luaopen_collide2d(lua_State *L);

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

static world_box *checkworld(lua_State *L, int idx)
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
static int push_tables(lua_State *L, int w)
{
    lua_getiuservalue(L, w, UV_SHAPES);
    lua_getiuservalue(L, w, UV_VALUES);
    return lua_gettop(L) - 1;
}

static void free_buffers(world_box *wb)
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
        setkey(L, t, b->key);
        lua_pushnil(L);
        setkey(L, t + 1, b->key);
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
static int w_destroy(lua_State *L)
{
    world_box *wb = checkworldbox(L, 1);
    if (wb->busy > 0)
        return luaL_error(L, "attempt to destroy a world from inside one of its callbacks");
    free_world(L, wb, 1);
    lua_pushnil(L);
    lua_setiuservalue(L, 1, UV_SHAPES);
    lua_pushnil(L);
    lua_setiuservalue(L, 1, UV_VALUES);
    return 0;
}

/* __gc: as destroy, without raising. The collector only finalizes an unreachable world, which no call
 * can be using; a direct call from inside one of the world's callbacks is ignored. */
static int w_gc(lua_State *L)
{
    world_box *wb = checkworldbox(L, 1);
    if (wb->busy > 0)
        return 0;
    free_world(L, wb, 1);
    free_buffers(wb);
    return 0;
}

/* "collide2d.world (12 shapes, 0x...)" or "collide2d.world (destroyed)". */
static int w_tostring(lua_State *L)
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
    wb = (world_box *)lua_newuserdatauv(L, sizeof(world_box), 2);
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
static int l_world(lua_State *L)
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
static int w_add(lua_State *L)
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
    setkey(L, t, key);
    lua_pushvalue(L, 3);
    setkey(L, t + 1, key);
    st = c2d_world_add(wb->world, sb->shape, key, &id);
    if (st != C2D_OK) {
        lua_pushnil(L);
        setkey(L, t, key);
        lua_pushnil(L);
        setkey(L, t + 1, key);
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
static int w_remove(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    leave_world(L, checkmember(L, 2, wb), 1);
    return 0;
}

/* world:update(shape): the shape moved or turned; no garbage. */
static int w_update(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    CHECK(L, c2d_world_update(wb->world, checkmember(L, 2, wb)->id), 2, "");
    return 0;
}

/* world:has(shape) -> boolean. */
static int w_has(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    lua_pushboolean(L, checkshapebox(L, 2)->world == wb);
    return 1;
}

/* world:count() -> the number of shapes in the world. */
static int w_count(lua_State *L)
{
    int n;
    CHECK(L, c2d_world_count(checkworld(L, 1)->world, &n), 1, "");
    lua_pushinteger(L, n);
    return 1;
}

/* world:value(shape) -> the shape's user value. */
static int w_value(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    shape_box *sb = checkmember(L, 2, wb);
    lua_getiuservalue(L, 1, UV_VALUES);
    getkey(L, lua_gettop(L), sb->key);
    return 1;
}

/* world:setValue(shape, value) -> shape. */
static int w_setvalue(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    shape_box *sb = checkmember(L, 2, wb);
    lua_settop(L, 3);
    lua_getiuservalue(L, 1, UV_VALUES);
    lua_pushvalue(L, 3);
    setkey(L, 4, sb->key);
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
static int w_setbits(lua_State *L)
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
static int w_setoneway(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    shape_box *sb = checkmember(L, 2, wb);
    c2d_vec2 d = checkdirection(L, 3);
    CHECK(L, c2d_world_set_one_way(wb->world, sb->id, d), 3, "cc");
    lua_settop(L, 2);
    return 1;
}

/* world:oneWay(shape) -> dx, dy, or nil when the entry blocks from every side. */
static int w_oneway(lua_State *L)
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

/* world:bits(shape) -> category, mask. */
static int w_bits(lua_State *L)
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
static int w_optimize(lua_State *L)
{
    CHECK(L, c2d_world_optimize(checkworld(L, 1)->world), 1, "");
    return 0;
}

/* ---- world calls that run Lua callbacks ------------------------------------------------------- */

/* What the callbacks of one world call need, on the C stack for the call. The stack slots are
 * pushed by begin_call above the call's arguments. */
typedef struct callback_ctx {
    lua_State *L;
    int shapes, values; /* stack indices of the world's tables */
    int filter;         /* stack index of the Lua filter function (nil when none) */
    int respond;        /* stack index of the Lua response function (nil when none) */
    int error;          /* stack index of the first error, or of the bad response */
    int failed;         /* FAIL_*: once set, every later callback of the call refuses */
    int has_filter, has_respond;
} callback_ctx;

enum { FAIL_NONE, FAIL_ERROR, FAIL_RESPONSE };

static void begin_call(lua_State *L, int w, callback_ctx *cc)
{
    luaL_checkstack(L, 16, "too many nested calls");
    cc->L = L;
    cc->shapes = push_tables(L, w);
    cc->values = cc->shapes + 1;
    lua_pushnil(L);
    cc->filter = lua_gettop(L);
    lua_pushnil(L);
    cc->respond = lua_gettop(L);
    lua_pushnil(L);
    cc->error = lua_gettop(L);
    cc->failed = FAIL_NONE;
    cc->has_filter = cc->has_respond = 0;
}

/* Runs fn(shape, value) for the entry under lua_pcall, leaving one result; 0 when it raised (the
 * error is then kept and the call fails). Pushing needs no allocation, so nothing here can raise. */
static int call_back(callback_ctx *cc, int fn, uintptr_t user)
{
    lua_State *L = cc->L;
    lua_pushvalue(L, fn);
    getkey(L, cc->shapes, user);
    getkey(L, cc->values, user);
    if (lua_pcall(L, 2, 1, 0) != 0) {
        lua_replace(L, cc->error);
        cc->failed = FAIL_ERROR;
        return 0;
    }
    return 1;
}

static int accept_cb(void *ctx, c2d_world_id id, uintptr_t user)
{
    callback_ctx *cc = (callback_ctx *)ctx;
    int ok;
    (void)id;
    if (cc->failed != FAIL_NONE || !call_back(cc, cc->filter, user))
        return 0;
    ok = lua_toboolean(cc->L, -1);
    lua_pop(cc->L, 1);
    return ok;
}

static c2d_response respond_cb(void *ctx, c2d_world_id id, uintptr_t user)
{
    callback_ctx *cc = (callback_ctx *)ctx;
    lua_State *L = cc->L;
    int r;
    (void)id;
    if (cc->failed != FAIL_NONE || !call_back(cc, cc->respond, user))
        return C2D_RESPONSE_NONE;
    r = lua_isnil(L, -1) ? C2D_RESPONSE_NONE : response_of(L, -1);
    if (r < 0) {
        lua_replace(L, cc->error);
        cc->failed = FAIL_RESPONSE;
        return C2D_RESPONSE_NONE;
    }
    lua_pop(L, 1);
    return (c2d_response)r;
}

/* Raises the error a callback raised, or the one for a bad response, once the core has returned. */
static void raise_callback_error(lua_State *L, const callback_ctx *cc)
{
    if (cc->failed == FAIL_ERROR) {
        lua_pushvalue(L, cc->error);
        lua_error(L);
    }
    if (cc->failed == FAIL_RESPONSE) {
        if (lua_type(L, cc->error) == LUA_TSTRING)
            luaL_error(L, "invalid response '%s' from the response function", lua_tostring(L, cc->error));
        luaL_error(L, "invalid response from the response function (string or nil expected, got %s)",
                   luaL_typename(L, cc->error));
    }
}

/* A filter's bits field: an integer from 0 to 0xFFFFFFFF, every bit when nil. */
static unsigned bits_field(lua_State *L, int arg, const char *key, const char *field)
{
    unsigned bits = C2D_WORLD_ALL_BITS;
    lua_getfield(L, arg, key);
    if (!lua_isnil(L, -1)) {
        lua_Number v = lua_tonumber(L, -1);
        if (lua_type(L, -1) != LUA_TNUMBER)
            field_typeerror(L, arg, field, "number");
        if (!(v >= 0 && v <= 4294967295.0 && v == floor(v)))
            field_error(L, arg, field, "integer from 0 to 0xFFFFFFFF expected");
        bits = (unsigned)v;
    }
    lua_pop(L, 1);
    return bits;
}

/* Reads the filter at arg: nil or none (every entry), a function(shape, value) or
 * {category =, mask =, fn =}. Returns the C filter to pass, or NULL. */
static const c2d_world_filter *checkfilter(lua_State *L, int arg, callback_ctx *cc, c2d_world_filter *f)
{
    int type = lua_type(L, arg);
    if (type == LUA_TNONE || type == LUA_TNIL)
        return NULL;
    f->category = f->mask = C2D_WORLD_ALL_BITS;
    f->accept = NULL;
    f->ctx = cc;
    if (type == LUA_TFUNCTION) {
        lua_pushvalue(L, arg);
    } else if (type == LUA_TTABLE) {
        f->category = bits_field(L, arg, "category", "filter.category");
        f->mask = bits_field(L, arg, "mask", "filter.mask");
        lua_getfield(L, arg, "fn");
        if (!lua_isnil(L, -1) && lua_type(L, -1) != LUA_TFUNCTION)
            field_typeerror(L, arg, "filter.fn", "function");
    } else {
        luaL_typeerror(L, arg, "function or table");
    }
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
    } else {
        lua_replace(L, cc->filter);
        cc->has_filter = 1;
        f->accept = accept_cb;
    }
    return f;
}

/* Reading a filter or options table may run metamethods, which may destroy the world or a shape the
 * call was given: checks them again just before the core call. */
static void check_live(lua_State *L, const world_box *wb, const shape_box *sb)
{
    if (wb->world == NULL)
        luaL_error(L, "attempt to use a destroyed world");
    if (sb != NULL && sb->shape == NULL)
        luaL_error(L, "attempt to use a destroyed shape");
}

/* Marks the start and the end of a core call that may run callbacks. */
static void enter(world_box *wb, shape_box *pin, const callback_ctx *cc)
{
    if (cc->has_filter || cc->has_respond) {
        wb->busy++;
        if (pin != NULL)
            pin->pinned++;
    }
}

static void leave(world_box *wb, shape_box *pin, const callback_ctx *cc)
{
    if (cc->has_filter || cc->has_respond) {
        wb->busy--;
        if (pin != NULL)
            pin->pinned--;
    }
}

/* Room for n results of size sz; *capacity receives how many fit. The world's own buffer (grown as
 * needed, kept for the next call), unless another call is using it: a query made from inside a
 * callback of the world, or from a finalizer while a call fills its tables, gets a temporary buffer
 * that the collector frees. */
static void *scratch(lua_State *L, world_box *wb, void **buf, size_t *size, int n, size_t sz, int *capacity)
{
    size_t need = (size_t)(n > 0 ? n : 1) * sz;
    if (wb->busy > 0 || wb->reading > 0) {
        void *p = lua_newuserdata(L, need);
        *capacity = n > 0 ? n : 1;
        if (wb->world == NULL) /* the allocation ran a finalizer that destroyed the world */
            luaL_error(L, "attempt to use a destroyed world");
        return p;
    }
    if (need > *size) {
        size_t grown = *size + *size / 2 > need ? *size + *size / 2 : need;
        void *p = realloc(*buf, grown);
        if (p == NULL)
            luaL_error(L, "%s", c2d_status_string(C2D_ERR_NO_MEMORY));
        *buf = p;
        *size = grown;
    }
    *capacity = (int)(*size / sz < (size_t)INT_MAX ? *size / sz : (size_t)INT_MAX);
    return *buf;
}

/* The capacity a query asks for first: its callbacks must run once only, so with a Lua filter the
 * buffer holds every entry (a query reports only entries there were when it began), else whatever
 * the buffer holds now (a retry grows it). */
static int first_capacity(const world_box *wb, const callback_ctx *cc)
{
    int n = 0;
    if (cc->has_filter)
        c2d_world_count(wb->world, &n);
    return n;
}

/* Ends reading the world's buffers: frees them if a finalizer destroyed the world meanwhile. */
static void done_reading(world_box *wb)
{
    wb->reading--;
    if (wb->world == NULL && wb->reading == 0)
        free_buffers(wb);
}

enum { Q_RECT, Q_POINT, Q_SHAPE };

/* world:queryRect(x, y, w, h [, filter [, out]]), world:queryPoint(x, y [, filter [, out]]),
 * world:queryShape(shape [, filter [, out]]) -> items, n: the shapes found, in the world's order,
 * in out (cleared past n) or a new table. */
static int world_query(lua_State *L, int kind)
{
    world_box *wb = checkworld(L, 1);
    shape_box *probe = NULL;
    c2d_aabb box;
    c2d_vec2 p = {0, 0};
    int farg, oarg, out, count = 0, cap, k, old = 0;
    const char *roles;
    callback_ctx cc;
    c2d_world_filter filter;
    const c2d_world_filter *f;
    c2d_world_hit *hits;
    c2d_status st;
    if (kind == Q_RECT) {
        double x = luaL_checknumber(L, 2), y = luaL_checknumber(L, 3);
        double w = luaL_checknumber(L, 4), h = luaL_checknumber(L, 5);
        box.min = vec(x, y);
        box.max = vec(x + w, y + h);
        farg = 6;
        roles = "ccnn";
    } else if (kind == Q_POINT) {
        p = vec(luaL_checknumber(L, 2), luaL_checknumber(L, 3));
        farg = 4;
        roles = "cc";
    } else {
        probe = checkshapebox(L, 2);
        if (probe->shape == NULL)
            return luaL_error(L, "attempt to use a destroyed shape");
        farg = 3;
        roles = "-";
    }
    oarg = farg + 1;
    out = opt_table(L, oarg);
    lua_settop(L, oarg);
    begin_call(L, 1, &cc);
    f = checkfilter(L, farg, &cc, &filter);
    check_live(L, wb, probe);
    hits = (c2d_world_hit *)scratch(L, wb, &wb->buf, &wb->bufsize, first_capacity(wb, &cc), sizeof *hits, &cap);
    for (;;) {
        check_live(L, wb, probe); /* a temporary buffer's allocation may have run a finalizer */
        enter(wb, probe, &cc);
        if (kind == Q_RECT)
            st = c2d_world_query_aabb(wb->world, box, f, hits, cap, &count);
        else if (kind == Q_POINT)
            st = c2d_world_query_point(wb->world, p, f, hits, cap, &count);
        else
            st = c2d_world_query_shape(wb->world, probe->shape, f, hits, cap, &count);
        leave(wb, probe, &cc);
        raise_callback_error(L, &cc);
        if (st != C2D_ERR_CAPACITY)
            break;
        hits = (c2d_world_hit *)scratch(L, wb, &wb->buf, &wb->bufsize, count, sizeof *hits, &cap);
    }
    if (st != C2D_OK)
        return status_error(L, st, 2, roles);
    wb->reading++;
    if (out == 0) {
        lua_createtable(L, count, 0);
        out = lua_gettop(L);
    } else {
        old = (int)lua_rawlen(L, out);
    }
    for (k = 0; k < count; k++) {
        getkey(L, cc.shapes, hits[k].user);
        lua_rawseti(L, out, k + 1);
    }
    done_reading(wb);
    for (k = old; k > count; k--) {
        lua_pushnil(L);
        lua_rawseti(L, out, k);
    }
    lua_pushvalue(L, out);
    lua_pushinteger(L, count);
    return 2;
}

static int w_queryrect(lua_State *L)
{
    return world_query(L, Q_RECT);
}

static int w_querypoint(lua_State *L)
{
    return world_query(L, Q_POINT);
}

static int w_queryshape(lua_State *L)
{
    return world_query(L, Q_SHAPE);
}

/* world:raycast(x, y, dx, dy [, maxT [, filter]]) -> nil, or shape, t, px, py, nx, ny: the first
 * shape the ray (x, y) + t * (dx, dy), 0 <= t <= maxT (default: unbounded), meets. No garbage. */
static int w_raycast(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    double ox = luaL_checknumber(L, 2), oy = luaL_checknumber(L, 3);
    double dx = luaL_checknumber(L, 4), dy = luaL_checknumber(L, 5);
    double maxt = luaL_optnumber(L, 6, HUGE_VAL);
    callback_ctx cc;
    c2d_world_filter filter;
    const c2d_world_filter *f;
    c2d_world_ray_hit hit;
    c2d_status st;
    lua_settop(L, 7);
    begin_call(L, 1, &cc);
    f = checkfilter(L, 7, &cc, &filter);
    check_live(L, wb, NULL);
    enter(wb, NULL, &cc);
    st = c2d_world_raycast(wb->world, vec(ox, oy), vec(dx, dy), maxt, f, &hit);
    leave(wb, NULL, &cc);
    raise_callback_error(L, &cc);
    if (st != C2D_OK)
        return status_error(L, st, 2, "ccddt");
    if (!hit.ray.hit) {
        lua_pushnil(L);
        return 1;
    }
    getkey(L, cc.shapes, hit.user);
    lua_pushnumber(L, hit.ray.t);
    lua_pushnumber(L, hit.ray.point.x);
    lua_pushnumber(L, hit.ray.point.y);
    lua_pushnumber(L, hit.ray.normal.x);
    lua_pushnumber(L, hit.ray.normal.y);
    return 6;
}

/* world:raycastAll(x, y, dx, dy [, maxT [, filter [, out]]]) -> hits, n: every shape the ray meets,
 * in order of t, as out[k] = {shape =, t =, x =, y =, nx =, ny =} (records reused). */
static int w_raycastall(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    double ox = luaL_checknumber(L, 2), oy = luaL_checknumber(L, 3);
    double dx = luaL_checknumber(L, 4), dy = luaL_checknumber(L, 5);
    double maxt = luaL_optnumber(L, 6, HUGE_VAL);
    int out = opt_table(L, 8), count = 0, cap, k;
    callback_ctx cc;
    c2d_world_filter filter;
    const c2d_world_filter *f;
    c2d_world_ray_hit *hits;
    c2d_status st;
    lua_settop(L, 8);
    begin_call(L, 1, &cc);
    f = checkfilter(L, 7, &cc, &filter);
    check_live(L, wb, NULL);
    hits = (c2d_world_ray_hit *)scratch(L, wb, &wb->buf, &wb->bufsize, first_capacity(wb, &cc), sizeof *hits,
                                        &cap);
    for (;;) {
        enter(wb, NULL, &cc);
        st = c2d_world_raycast_all(wb->world, vec(ox, oy), vec(dx, dy), maxt, f, hits, cap, &count);
        leave(wb, NULL, &cc);
        raise_callback_error(L, &cc);
        if (st != C2D_ERR_CAPACITY)
            break;
        hits = (c2d_world_ray_hit *)scratch(L, wb, &wb->buf, &wb->bufsize, count, sizeof *hits, &cap);
    }
    if (st != C2D_OK)
        return status_error(L, st, 2, "ccddt");
    wb->reading++;
    if (out == 0) {
        lua_createtable(L, count, 0);
        out = lua_gettop(L);
    }
    for (k = 0; k < count; k++) {
        record_at(L, out, k + 1, 6);
        getkey(L, cc.shapes, hits[k].user);
        lua_setfield(L, -2, "shape");
        set_number(L, "t", hits[k].ray.t);
        set_number(L, "x", hits[k].ray.point.x);
        set_number(L, "y", hits[k].ray.point.y);
        set_number(L, "nx", hits[k].ray.normal.x);
        set_number(L, "ny", hits[k].ray.normal.y);
        lua_pop(L, 1);
    }
    done_reading(wb);
    lua_pushvalue(L, out);
    lua_pushinteger(L, count);
    return 2;
}

/* world:pairs([out [, withContacts]]) -> list, n: every pair of overlapping shapes, as
 * out[k] = {a =, b =} (a first in the world's order), plus nx, ny (from a to b) and depth when
 * withContacts (records reused). */
static int w_pairs(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    int out = opt_table(L, 2), with = lua_toboolean(L, 3), count = 0, cap, ccap = 0, k, t;
    c2d_world_pair *pairs;
    c2d_contact *contacts = NULL;
    c2d_status st;
    lua_settop(L, 3);
    t = push_tables(L, 1);
    /* Whatever the buffers hold now; a retry grows them to the count. */
    pairs = (c2d_world_pair *)scratch(L, wb, &wb->buf, &wb->bufsize, 0, sizeof *pairs, &cap);
    if (with) {
        contacts = (c2d_contact *)scratch(L, wb, &wb->cbuf, &wb->cbufsize, 0, sizeof *contacts, &ccap);
        cap = ccap < cap ? ccap : cap;
    }
    for (;;) {
        st = c2d_world_pairs(wb->world, pairs, contacts, cap, &count);
        if (st != C2D_ERR_CAPACITY)
            break;
        pairs = (c2d_world_pair *)scratch(L, wb, &wb->buf, &wb->bufsize, count, sizeof *pairs, &cap);
        if (with) {
            contacts = (c2d_contact *)scratch(L, wb, &wb->cbuf, &wb->cbufsize, count, sizeof *contacts, &ccap);
            cap = ccap < cap ? ccap : cap;
        }
    }
    if (st != C2D_OK)
        return status_error(L, st, 1, "");
    wb->reading++;
    if (out == 0) {
        lua_createtable(L, count, 0);
        out = lua_gettop(L);
    }
    for (k = 0; k < count; k++) {
        record_at(L, out, k + 1, with ? 5 : 2);
        getkey(L, t, pairs[k].user_a);
        lua_setfield(L, -2, "a");
        getkey(L, t, pairs[k].user_b);
        lua_setfield(L, -2, "b");
        if (with) {
            set_number(L, "nx", contacts[k].normal.x);
            set_number(L, "ny", contacts[k].normal.y);
            set_number(L, "depth", contacts[k].depth);
        } else {
            lua_pushnil(L);
            lua_setfield(L, -2, "nx");
            lua_pushnil(L);
            lua_setfield(L, -2, "ny");
            lua_pushnil(L);
            lua_setfield(L, -2, "depth");
        }
        lua_pop(L, 1);
    }
    done_reading(wb);
    lua_pushvalue(L, out);
    lua_pushinteger(L, count);
    return 2;
}

/* Fills contacts[1..n] (index 0: no table) with a world's contacts. */
static void fill_world_contacts(lua_State *L, const callback_ctx *cc, int contacts, const c2d_contact_record *c,
                                int n)
{
    int k;
    if (contacts == 0)
        return;
    for (k = 0; k < n; k++) {
        record_at(L, contacts, k + 1, 13);
        getkey(L, cc->shapes, c[k].user);
        lua_setfield(L, -2, "shape");
        getkey(L, cc->values, c[k].user);
        lua_setfield(L, -2, "value");
        set_contact(L, &c[k]);
        lua_pop(L, 1);
    }
}

/* world:move(shape, dx, dy [, opts [, filter [, contacts]]]) -> x, y, n: as set:move through the
 * world's shapes (the shape itself is skipped if it is in the world); not moved, nor is the world. */
static int w_move(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    shape_box *mover = checkshapebox(L, 2);
    double dx = luaL_checknumber(L, 3), dy = luaL_checknumber(L, 4);
    int contacts = opt_table(L, 7), n;
    callback_ctx cc;
    c2d_world_filter filter;
    const c2d_world_filter *f;
    c2d_move_options o;
    c2d_move_result res;
    record_sink sink;
    c2d_vec2 p;
    c2d_status st;
    if (mover->shape == NULL)
        return luaL_error(L, "attempt to use a destroyed shape");
    lua_settop(L, 7);
    begin_call(L, 1, &cc);
    checkmoveopts(L, 5, &o, NULL, 0, C2D_RESPONSE_SLIDE, cc.respond, &cc.has_respond);
    f = checkfilter(L, 6, &cc, &filter);
    begin_records(L, &sink);
    check_live(L, wb, mover);
    enter(wb, mover, &cc);
    if (contacts)
        st = c2d_world_move_report(wb->world, mover->shape, vec(dx, dy), f, cc.has_respond ? respond_cb : NULL, &cc,
                                   &o, &res, keep_records, &sink);
    else
        st = c2d_world_move(wb->world, mover->shape, vec(dx, dy), f, cc.has_respond ? respond_cb : NULL, &cc, &o,
                            &res, NULL, 0);
    leave(wb, mover, &cc);
    raise_callback_error(L, &cc);
    if (st != C2D_OK)
        return status_error(L, st, 2, "-cc");
    CHECK(L, c2d_shape_get_position(mover->shape, &p), 2, "");
    n = res.count;
    fill_world_contacts(L, &cc, contacts, sink.items, sink.n);
    lua_pushnumber(L, p.x + res.displacement.x);
    lua_pushnumber(L, p.y + res.displacement.y);
    lua_pushinteger(L, n);
    return 3;
}

/* world:stepBall(x, y, vx, vy, r, dt [, opts [, filter [, contacts]]]) -> x, y, vx, vy, n: as
 * set:stepBall through the world's shapes. */
static int w_stepball(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    c2d_ball ball;
    double dt;
    int contacts = opt_table(L, 10), n;
    callback_ctx cc;
    c2d_world_filter filter;
    const c2d_world_filter *f;
    c2d_move_options o;
    c2d_move_result res;
    record_sink sink;
    c2d_status st;
    ball.position = vec(luaL_checknumber(L, 2), luaL_checknumber(L, 3));
    ball.velocity = vec(luaL_checknumber(L, 4), luaL_checknumber(L, 5));
    ball.radius = luaL_checknumber(L, 6);
    dt = luaL_checknumber(L, 7);
    lua_settop(L, 10);
    begin_call(L, 1, &cc);
    checkmoveopts(L, 8, &o, NULL, 0, C2D_RESPONSE_BOUNCE, cc.respond, &cc.has_respond);
    f = checkfilter(L, 9, &cc, &filter);
    begin_records(L, &sink);
    check_live(L, wb, NULL);
    enter(wb, NULL, &cc);
    if (contacts)
        st = c2d_world_step_ball_report(wb->world, &ball, dt, f, cc.has_respond ? respond_cb : NULL, &cc, &o, &res,
                                        keep_records, &sink);
    else
        st = c2d_world_step_ball(wb->world, &ball, dt, f, cc.has_respond ? respond_cb : NULL, &cc, &o, &res, NULL,
                                 0);
    leave(wb, NULL, &cc);
    raise_callback_error(L, &cc);
    if (st != C2D_OK)
        return status_error(L, st, 2, "ccccsn");
    n = res.count;
    fill_world_contacts(L, &cc, contacts, sink.items, sink.n);
    lua_pushnumber(L, ball.position.x);
    lua_pushnumber(L, ball.position.y);
    lua_pushnumber(L, ball.velocity.x);
    lua_pushnumber(L, ball.velocity.y);
    lua_pushinteger(L, n);
    return 5;
}

/* The module table is also the metatable's __index, so shape:collide(other) is collide(shape, other),
 * shape:sweep(dx, dy, other) is sweep(shape, dx, dy, other) and shape:world() is world(shape). */
static const luaL_Reg module_funcs[] = {
    {"angle", l_angle},
    {"bbox", l_bbox},
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
    {"count", s_count},
    {"destroy", s_destroy},
    {"isEnabled", s_isenabled},
    {"isSeam", s_isseam},
    {"markNeighbours", s_markneighbours},
    {"move", s_move},
    {"oneWay", s_oneway},
    {"pushOut", s_pushout},
    {"setEnabled", s_setenabled},
    {"setOneWay", s_setoneway},
    {"setTransform", s_settransform},
    {"setVelocity", s_setvelocity},
    {"stepBall", s_stepball},
    {"sweep", s_sweep},
    {"transform", s_transform},
    {"velocity", s_velocity},
    {NULL, NULL},
};

static const luaL_Reg set_meta[] = {
    {"__close", s_destroy},
    {"__gc", s_destroy},
    {"__tostring", s_tostring},
    {NULL, NULL},
};

static const luaL_Reg world_methods[] = {
    {"add", w_add},
    {"bits", w_bits},
    {"count", w_count},
    {"destroy", w_destroy},
    {"has", w_has},
    {"move", w_move},
    {"oneWay", w_oneway},
    {"optimize", w_optimize},
    {"pairs", w_pairs},
    {"queryPoint", w_querypoint},
    {"queryRect", w_queryrect},
    {"queryShape", w_queryshape},
    {"raycast", w_raycast},
    {"raycastAll", w_raycastall},
    {"remove", w_remove},
    {"setBits", w_setbits},
    {"setOneWay", w_setoneway},
    {"setValue", w_setvalue},
    {"stepBall", w_stepball},
    {"update", w_update},
    {"value", w_value},
    {NULL, NULL},
};

static const luaL_Reg world_meta[] = {
    {"__close", w_destroy},
    {"__gc", w_gc},
    {"__tostring", w_tostring},
    {NULL, NULL},
};

/* ---- the LuaJIT fast path ---------------------------------------------------------------------- */

/*
 * Under LuaJIT, a call to a classic C function aborts the trace being compiled, so a game loop that
 * calls collide or overlaps runs interpreted around every call, and a pure-Lua SAT can beat the
 * native code. FFI calls do get compiled. So, only under LuaJIT with the ffi module (and the JIT on
 * when the module is loaded), luaopen_collide2d runs lua/ffi.lua, which replaces the hot functions with
 * Lua wrappers that call the entry points below through FFI function pointers. They are handed over as
 * light userdata (the address of a pointer to each), never looked up by symbol: the module is built
 * with hidden visibility and loaded RTLD_LOCAL. COLLIDE2D_NO_FFI=1 in the environment keeps the C path.
 *
 * An entry point takes each shape argument as the FFI passes a full userdata to a void * parameter:
 * the address of its payload, so a call makes no cdata, even interpreted. It is given only userdata
 * carrying the shape metatable, but that can be any userdata (debug.setmetatable), which the C path
 * tells apart by its size: here the box's tag, its own address scrambled, says that it is a shape
 * box, and m_gc clears it so that memory a collected box leaves behind cannot pass for one. (For a
 * userdata smaller than the tag, that read goes past its payload, into the rest of its heap block or
 * the allocator's header after it: mapped memory.) An entry point returns FFI_FALLBACK for anything
 * but a plain success (not a shape box, a destroyed shape, a failed status); the wrapper then calls
 * the C function with the same arguments, which raises the usual error. Results go into the caller's
 * array of doubles in the order the C function returns them, so the Lua side knows no struct layout:
 * shape_box stays private to the C files. The entry points read and write only the shapes, as the C
 * functions do, and touch no Lua state; the wrappers read the results back before any other Lua code
 * can run, so coroutines never see each other's.
 */
#if LUA_VERSION_NUM == 501

#define FFI_FALLBACK (-1)

/* The shape in the box at p, or NULL when p is not a live shape box. */
static c2d_shape *ffi_shape(void *p)
{
    const shape_box *b = (const shape_box *)p;
    if (b == NULL || b->tag != BOX_TAG(b))
        return NULL;
    return b->shape;
}

/* -> 1 or 0 as l_overlaps' boolean. */
static int ffi_overlaps(void *pa, void *pb)
{
    c2d_shape *a = ffi_shape(pa), *b = ffi_shape(pb);
    int hit;
    if (a == NULL || b == NULL || c2d_overlap(a, b, &hit) != C2D_OK)
        return FFI_FALLBACK;
    return hit != 0;
}

/* -> the number of contact points l_collide returns (0: it returns nil); out gets nx, ny, depth,
 * x1, y1 [, x2, y2]. */
static int ffi_collide(void *pa, void *pb, double *out)
{
    c2d_shape *a = ffi_shape(pa), *b = ffi_shape(pb);
    c2d_contact c;
    int i;
    if (a == NULL || b == NULL || c2d_collide(a, b, &c) != C2D_OK)
        return FFI_FALLBACK;
    if (c.count <= 0)
        return 0;
    out[0] = c.normal.x;
    out[1] = c.normal.y;
    out[2] = c.depth;
    for (i = 0; i < c.count && i < 2; i++) {
        out[3 + 2 * i] = c.points[i].x;
        out[4 + 2 * i] = c.points[i].y;
    }
    return i;
}

/* -> 0; out gets l_distance's seven numbers. */
static int ffi_distance(void *pa, void *pb, double *out)
{
    c2d_shape *a = ffi_shape(pa), *b = ffi_shape(pb);
    c2d_distance_result r;
    if (a == NULL || b == NULL || c2d_distance(a, b, &r) != C2D_OK)
        return FFI_FALLBACK;
    out[0] = r.distance;
    out[1] = r.point_a.x;
    out[2] = r.point_a.y;
    out[3] = r.point_b.x;
    out[4] = r.point_b.y;
    out[5] = r.normal.x;
    out[6] = r.normal.y;
    return 0;
}

/* -> 1 or 0 as l_contains' boolean. */
static int ffi_contains(void *p, double x, double y)
{
    c2d_shape *s = ffi_shape(p);
    int in;
    if (s == NULL || c2d_contains_point(s, vec(x, y), &in) != C2D_OK)
        return FFI_FALLBACK;
    return in != 0;
}

/* -> 1 for a hit (out gets t, x, y, nx, ny), 0 for a miss (l_raycast returns nil). */
static int ffi_raycast(void *p, double ox, double oy, double dx, double dy, double maxt, double *out)
{
    c2d_shape *s = ffi_shape(p);
    c2d_ray_hit h;
    if (s == NULL || c2d_raycast(s, vec(ox, oy), vec(dx, dy), maxt, &h) != C2D_OK)
        return FFI_FALLBACK;
    if (!h.hit)
        return 0;
    out[0] = h.t;
    out[1] = h.point.x;
    out[2] = h.point.y;
    out[3] = h.normal.x;
    out[4] = h.normal.y;
    return 1;
}

/* -> 0; out gets x, y. */
static int ffi_position(void *p, double *out)
{
    c2d_shape *s = ffi_shape(p);
    c2d_vec2 v;
    if (s == NULL || c2d_shape_get_position(s, &v) != C2D_OK)
        return FFI_FALLBACK;
    out[0] = v.x;
    out[1] = v.y;
    return 0;
}

/* The setters -> 0. A failed status leaves the shape as it was, so the C function can fail again. */
static int ffi_move(void *p, double dx, double dy)
{
    c2d_shape *s = ffi_shape(p);
    return s != NULL && c2d_shape_move(s, vec(dx, dy)) == C2D_OK ? 0 : FFI_FALLBACK;
}

static int ffi_setposition(void *p, double x, double y)
{
    c2d_shape *s = ffi_shape(p);
    return s != NULL && c2d_shape_set_position(s, vec(x, y)) == C2D_OK ? 0 : FFI_FALLBACK;
}

static int ffi_rotate(void *p, double da)
{
    c2d_shape *s = ffi_shape(p);
    return s != NULL && c2d_shape_rotate(s, da) == C2D_OK ? 0 : FFI_FALLBACK;
}

static int ffi_setangle(void *p, double a)
{
    c2d_shape *s = ffi_shape(p);
    return s != NULL && c2d_shape_set_angle(s, a) == C2D_OK ? 0 : FFI_FALLBACK;
}

static int ffi_settransform(void *p, double x, double y, double a)
{
    c2d_shape *s = ffi_shape(p);
    return s != NULL && c2d_shape_set_transform(s, vec(x, y), a) == C2D_OK ? 0 : FFI_FALLBACK;
}

/* Objects holding the function pointers: ISO C converts the address of an object, not of a function,
 * to void *. Each signature must match the one ffi_chunk casts its pointer to. */
static int (*const ffi_overlaps_p)(void *, void *) = ffi_overlaps;
static int (*const ffi_collide_p)(void *, void *, double *) = ffi_collide;
static int (*const ffi_distance_p)(void *, void *, double *) = ffi_distance;
static int (*const ffi_contains_p)(void *, double, double) = ffi_contains;
static int (*const ffi_raycast_p)(void *, double, double, double, double, double, double *) = ffi_raycast;
static int (*const ffi_position_p)(void *, double *) = ffi_position;
static int (*const ffi_move_p)(void *, double, double) = ffi_move;
static int (*const ffi_setposition_p)(void *, double, double) = ffi_setposition;
static int (*const ffi_rotate_p)(void *, double) = ffi_rotate;
static int (*const ffi_setangle_p)(void *, double) = ffi_setangle;
static int (*const ffi_settransform_p)(void *, double, double, double) = ffi_settransform;

static const struct {
    const char *name;
    const void *entry;
} ffi_entries[] = {
    {"overlaps", &ffi_overlaps_p},
    {"collide", &ffi_collide_p},
    {"distance", &ffi_distance_p},
    {"contains", &ffi_contains_p},
    {"raycast", &ffi_raycast_p},
    {"position", &ffi_position_p},
    {"move", &ffi_move_p},
    {"setPosition", &ffi_setposition_p},
    {"rotate", &ffi_rotate_p},
    {"setAngle", &ffi_setangle_p},
    {"setTransform", &ffi_settransform_p},
};

/* The wrappers of lua/ffi.lua, run with (module, shape metatable, entry points). */
#include "ffi_chunk.h"

/* Installs the fast path into the module table at index module, when this is LuaJIT with its ffi
 * module and COLLIDE2D_NO_FFI is unset, empty or "0". Anything that goes wrong leaves the C path. */
static void install_ffi(lua_State *L, int module)
{
    const char *off = getenv("COLLIDE2D_NO_FFI");
    size_t i;
    int luajit;
    if (off != NULL && off[0] != '\0' && strcmp(off, "0") != 0)
        return;
    lua_getfield(L, LUA_REGISTRYINDEX, "_LOADED");
    lua_getfield(L, -1, "jit");
    luajit = lua_istable(L, -1);
    lua_pop(L, 2);
    if (!luajit)
        return;
    if (luaL_loadbuffer(L, ffi_chunk, sizeof ffi_chunk - 1, "=collide2d.ffi") != 0) {
        lua_pop(L, 1);
        return;
    }
    lua_pushvalue(L, module);
    luaL_getmetatable(L, SHAPE_NAME);
    lua_createtable(L, 0, (int)(sizeof ffi_entries / sizeof ffi_entries[0]));
    for (i = 0; i < sizeof ffi_entries / sizeof ffi_entries[0]; i++) {
        lua_pushlightuserdata(L, (void *)ffi_entries[i].entry);
        lua_setfield(L, -2, ffi_entries[i].name);
    }
    if (lua_pcall(L, 3, 0, 0) != 0)
        lua_pop(L, 1);
}
#endif

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
