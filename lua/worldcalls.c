/*
 * worldcalls.c - the world calls that can run Lua callbacks (query filters, move responses): queries,
 * ray casts, moves and ball steps, and what runs those callbacks safely from inside the core;
 * world:pairs too, which shares the queries' result buffers.
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
    compat_getkey(L, cc->shapes, user);
    compat_getkey(L, cc->values, user);
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
        compat_getkey(L, cc.shapes, hits[k].user);
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

int w_queryrect(lua_State *L)
{
    return world_query(L, Q_RECT);
}

int w_querypoint(lua_State *L)
{
    return world_query(L, Q_POINT);
}

int w_queryshape(lua_State *L)
{
    return world_query(L, Q_SHAPE);
}

/* world:raycast(x, y, dx, dy [, maxT [, filter]]) -> nil, or shape, t, px, py, nx, ny: the first
 * shape the ray (x, y) + t * (dx, dy), 0 <= t <= maxT (default: unbounded), meets. No garbage. */
int w_raycast(lua_State *L)
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
    compat_getkey(L, cc.shapes, hit.user);
    lua_pushnumber(L, hit.ray.t);
    lua_pushnumber(L, hit.ray.point.x);
    lua_pushnumber(L, hit.ray.point.y);
    lua_pushnumber(L, hit.ray.normal.x);
    lua_pushnumber(L, hit.ray.normal.y);
    return 6;
}

/* world:raycastAll(x, y, dx, dy [, maxT [, filter [, out]]]) -> hits, n: every shape the ray meets,
 * in order of t, as out[k] = {shape =, t =, x =, y =, nx =, ny =} (records reused). */
int w_raycastall(lua_State *L)
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
        compat_getkey(L, cc.shapes, hits[k].user);
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
int w_pairs(lua_State *L)
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
        compat_getkey(L, t, pairs[k].user_a);
        lua_setfield(L, -2, "a");
        compat_getkey(L, t, pairs[k].user_b);
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

/* Pushes the values table of the world's level (at stack index w), or nil: what its shapes' contacts
 * report as their values. */
static void push_level_values(lua_State *L, int w)
{
    lua_getiuservalue(L, w, UV_LEVEL);
    if (lua_isnil(L, -1))
        return;
    push_set_values(L, lua_gettop(L));
    lua_remove(L, -2);
}

/* Pushes what a world's contact or cast met, and its value: an entry's shape, or for a shape of the
 * world's level its 1-based index in the level (levels: the level's values table, or nil). */
static void push_met(lua_State *L, const callback_ctx *cc, int levels, c2d_world_id id, int index, uintptr_t user)
{
    if (id != 0) {
        compat_getkey(L, cc->shapes, user);
        compat_getkey(L, cc->values, user);
        return;
    }
    lua_pushinteger(L, (lua_Integer)index + 1);
    if (lua_istable(L, levels))
        lua_rawgeti(L, levels, index + 1);
    else
        lua_pushnil(L);
}

/* Fills contacts[1..n] (index 0: no table) with a world's contacts: an entry's with its shape and value,
 * a level shape's with its index and value. */
static void fill_world_contacts(lua_State *L, const callback_ctx *cc, int contacts, const c2d_contact_record *c,
                                int n)
{
    int k, levels;
    if (contacts == 0)
        return;
    push_level_values(L, 1);
    levels = lua_gettop(L);
    for (k = 0; k < n; k++) {
        record_at(L, contacts, k + 1, 14);
        push_met(L, cc, levels, c[k].id, c[k].contact.index, c[k].user);
        lua_setfield(L, -3, "value");
        if (c[k].id != 0) {
            lua_setfield(L, -2, "shape");
            lua_pushnil(L);
            lua_setfield(L, -2, "index");
        } else {
            lua_setfield(L, -2, "index");
            lua_pushnil(L);
            lua_setfield(L, -2, "shape");
        }
        set_contact(L, &c[k]);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* The scratch for opts.responses: the level's, one per shape of the world's level, or NULL when the
 * world has none (opts.responses is then refused). */
static c2d_response *level_responses(const world_box *wb, int *n)
{
    *n = wb->level != NULL && wb->level->set != NULL ? wb->level->n : 0;
    return *n > 0 || (wb->level != NULL && wb->level->set != NULL) ? wb->level->responses : NULL;
}

/* world:move and world:moveTurning: the motion's numbers at 3 .. 4 (a move) or 3 .. 7 (vx, vy, w, px,
 * py: a move that turns), then opts, filter and contacts. */
static int world_move(lua_State *L, int turning)
{
    world_box *wb = checkworld(L, 1);
    shape_box *mover = checkshapebox(L, 2);
    c2d_motion m;
    int at = turning ? 8 : 5; /* opts; filter and contacts follow */
    int contacts, n, place;
    callback_ctx cc;
    c2d_world_filter filter;
    const c2d_world_filter *f;
    c2d_move_options o;
    move_args ma;
    c2d_move_result res;
    record_sink sink;
    c2d_vec2 p;
    double angle = 0, turned = 0, dt;
    c2d_response *responses;
    int nresponses;
    c2d_status st;
    if (turning) {
        m = checkmotion(L, 3, 0);
    } else {
        memset(&m, 0, sizeof m);
        m.velocity = vec(luaL_checknumber(L, 3), luaL_checknumber(L, 4));
    }
    contacts = opt_table(L, at + 2);
    checkmover(L, 2);
    lua_settop(L, at + 2);
    begin_call(L, 1, &cc);
    responses = level_responses(wb, &nresponses);
    checkmoveargs(L, at, 1, &ma, responses, nresponses, C2D_RESPONSE_SLIDE, cc.respond, &cc.has_respond);
    o = ma.o;
    place = ma.place;
    dt = ma.dt;
    f = checkfilter(L, at + 1, &cc, &filter);
    begin_records(L, &sink);
    check_live(L, wb, mover);
    enter(wb, mover, &cc);
    c2d_world_response_fn respond = cc.has_respond ? respond_cb : NULL;
    if (dt > 0 && turning) {
        /* (dx, dy) and angle are the whole move's, as without dt; the C call takes them per unit of time. */
        c2d_motion per_unit = m;
        per_unit.velocity = vec(m.velocity.x / dt, m.velocity.y / dt);
        per_unit.angular_velocity = m.angular_velocity / dt;
        st = c2d_world_move_turning_timed_report(wb->world, mover->shape, &per_unit, dt, f, respond, &cc, &o, &res,
                                                 &turned, keep_records, &sink);
    } else if (dt > 0)
        st = c2d_world_move_timed_report(wb->world, mover->shape, m.velocity, dt, f, respond, &cc, &o, &res,
                                         keep_records, &sink);
    else if (turning && contacts)
        st = c2d_world_move_turning_report(wb->world, mover->shape, &m, f, respond, &cc, &o, &res, &turned,
                                           keep_records, &sink);
    else if (turning)
        st = c2d_world_move_turning(wb->world, mover->shape, &m, f, respond, &cc, &o, &res, &turned, NULL, 0);
    else if (contacts)
        st = c2d_world_move_report(wb->world, mover->shape, m.velocity, f, respond, &cc, &o, &res, keep_records,
                                   &sink);
    else
        st = c2d_world_move(wb->world, mover->shape, m.velocity, f, respond, &cc, &o, &res, NULL, 0);
    leave(wb, mover, &cc);
    raise_callback_error(L, &cc);
    if (st != C2D_OK)
        return status_error(L, st, 2, turning ? "-cccccc" : "-cc");
    CHECK(L, c2d_shape_get_position(mover->shape, &p), 2, "");
    CHECK(L, c2d_shape_get_angle(mover->shape, &angle), 2, "");
    p = vec(p.x + res.displacement.x, p.y + res.displacement.y);
    angle += turned;
    if (place) /* and its entry updated, in this world or the one it is in */
        place_mover(L, 2, p, turning, angle);
    n = res.count;
    fill_world_contacts(L, &cc, contacts, sink.items, sink.n);
    lua_pushnumber(L, p.x);
    lua_pushnumber(L, p.y);
    if (!turning) {
        lua_pushinteger(L, n);
        return 3;
    }
    lua_pushnumber(L, angle);
    lua_pushinteger(L, n);
    return 4;
}

/* world:move(shape, dx, dy [, opts [, filter [, contacts]]]) -> x, y, n: as set:move through the
 * world's shapes (the shape itself is skipped if it is in the world); not moved, nor is the world. */
int w_move(lua_State *L)
{
    return world_move(L, 0);
}

/* world:moveTurning(shape, dx, dy, angle [, px, py [, opts [, filter [, contacts]]]]) -> x, y, angle, n:
 * as set:moveTurning through the world's shapes. */
int w_moveturning(lua_State *L)
{
    return world_move(L, 1);
}

/* world:stepBall(x, y, vx, vy, r, dt [, opts [, filter [, contacts]]]) -> x, y, vx, vy, n: as
 * set:stepBall through the world's shapes. */
int w_stepball(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    c2d_ball ball;
    double dt;
    int contacts = opt_table(L, 10), n;
    callback_ctx cc;
    c2d_world_filter filter;
    const c2d_world_filter *f;
    c2d_move_options o;
    move_args ma;
    c2d_move_result res;
    record_sink sink;
    c2d_response *responses;
    int nresponses;
    c2d_status st;
    ball.position = vec(luaL_checknumber(L, 2), luaL_checknumber(L, 3));
    ball.velocity = vec(luaL_checknumber(L, 4), luaL_checknumber(L, 5));
    ball.radius = luaL_checknumber(L, 6);
    dt = luaL_checknumber(L, 7);
    lua_settop(L, 10);
    begin_call(L, 1, &cc);
    responses = level_responses(wb, &nresponses);
    checkmoveargs(L, 8, 0, &ma, responses, nresponses, C2D_RESPONSE_BOUNCE, cc.respond, &cc.has_respond);
    o = ma.o;
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

/* Where c2d_world_step_balls puts its records and the ball each is about: the records in a record sink,
 * the balls beside them (on the C stack, or beyond CONTACTS in a buffer the collector frees). */
typedef struct ball_sink {
    record_sink records;
    int slot; /* stack slot for the balls' buffer (the allocator function until then) */
    int *balls;
    int stack[CONTACTS];
} ball_sink;

/* Reserves the sink's stack slots (before the core call: this may raise, the core must not see it). */
static void begin_ball_records(lua_State *L, ball_sink *k)
{
    begin_records(L, &k->records);
    k->balls = k->stack;
    lua_pushlightuserdata(L, (void *)&new_buffer_key);
    lua_rawget(L, LUA_REGISTRYINDEX);
    k->slot = lua_gettop(L);
}

/* The core's c2d_balls_records_fn: copies every record and ball. Called from inside the core, so
 * nothing here may raise a Lua error: a buffer beyond the stack's is made under lua_pcall. */
static c2d_status keep_ball_records(void *ctx, const c2d_contact_record *records, const int *balls, int count)
{
    ball_sink *k = (ball_sink *)ctx;
    lua_State *L = k->records.L;
    c2d_status st = keep_records(&k->records, records, count);
    if (st != C2D_OK)
        return st;
    if (count > CONTACTS) {
        lua_pushvalue(L, k->slot);
        lua_pushinteger(L, (lua_Integer)count * (lua_Integer)sizeof *balls);
        if (lua_pcall(L, 1, 1, 0) != 0) {
            lua_pop(L, 1);
            return C2D_ERR_NO_MEMORY;
        }
        k->balls = (int *)lua_touserdata(L, -1);
        lua_replace(L, k->slot);
    }
    if (count > 0)
        memcpy(k->balls, balls, (size_t)count * sizeof *balls);
    return C2D_OK;
}

/* Fills contacts[1..n] (index 0: no table) with the records of a world's step of many balls: ball (which
 * ball, 1-based), and what it met as a world's contacts name it (an entry's shape and value, a level
 * shape's index and value) or other (the other ball, 1-based). */
static void fill_balls_world_contacts(lua_State *L, const callback_ctx *cc, int contacts, const c2d_contact_record *c,
                                      const int *balls, int n)
{
    int k, levels;
    if (contacts == 0)
        return;
    push_level_values(L, 1);
    levels = lua_gettop(L);
    for (k = 0; k < n; k++) {
        record_at(L, contacts, k + 1, 16);
        lua_pushinteger(L, (lua_Integer)balls[k] + 1);
        lua_setfield(L, -2, "ball");
        if (c[k].id == 0 && c[k].contact.index < 0) {
            lua_pushinteger(L, (lua_Integer)(-1 - c[k].contact.index) + 1);
            lua_setfield(L, -2, "other");
            lua_pushnil(L);
            lua_setfield(L, -2, "value");
            lua_pushnil(L);
            lua_setfield(L, -2, "shape");
            lua_pushnil(L);
            lua_setfield(L, -2, "index");
        } else {
            lua_pushnil(L);
            lua_setfield(L, -2, "other");
            push_met(L, cc, levels, c[k].id, c[k].contact.index, c[k].user);
            lua_setfield(L, -3, "value");
            lua_setfield(L, -2, c[k].id != 0 ? "shape" : "index");
            lua_pushnil(L);
            lua_setfield(L, -2, c[k].id != 0 ? "index" : "shape");
        }
        set_contact(L, &c[k]);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* world:stepBalls(balls, dt [, opts [, filter [, contacts]]]) -> n, truncated: as set:stepBalls through
 * the world's shapes that pass the filter and its level, with opts.response as for world:move. */
int w_stepballs(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    double dt = luaL_checknumber(L, 3);
    int contacts = opt_table(L, 6), n, top;
    callback_ctx cc;
    c2d_world_filter filter;
    const c2d_world_filter *f;
    move_args ma;
    balls_args ba;
    c2d_move_result res;
    ball_sink sink;
    c2d_response *responses;
    int nresponses;
    c2d_status st;
    n = balls_count(L, 2);
    lua_settop(L, 6);
    begin_call(L, 1, &cc);
    responses = level_responses(wb, &nresponses);
    checkmoveargs(L, 4, 0, &ma, responses, nresponses, C2D_RESPONSE_BOUNCE, cc.respond, &cc.has_respond);
    f = checkfilter(L, 5, &cc, &filter);
    top = lua_gettop(L);
    check_balls(L, 2, 4, n, &ba);
    begin_ball_records(L, &sink);
    check_live(L, wb, NULL);
    enter(wb, NULL, &cc);
    st = c2d_world_step_balls(wb->world, ba.balls, ba.masses, n, dt, f, cc.has_respond ? respond_cb : NULL, &cc,
                              &ma.o, &ba.bo, &res, contacts ? keep_ball_records : NULL, &sink);
    leave(wb, NULL, &cc);
    if (cc.failed != FAIL_NONE) {
        balls_done(L, &ba);
        raise_callback_error(L, &cc);
    }
    if (st != C2D_OK)
        return balls_error(L, st, dt, &ba);
    put_balls(L, 2, &ba);
    fill_balls_world_contacts(L, &cc, contacts, sink.records.items, sink.balls, sink.records.n);
    balls_done(L, &ba);
    lua_settop(L, top);
    lua_pushinteger(L, res.count);
    lua_pushboolean(L, res.truncated);
    return 2;
}

/* world:cast(shape, dx, dy [, filter]) -> nil, or t, x, y, nx, ny, what, value, px, py, depth: as
 * set:cast through the world's shapes and its level; what is the shape met, or the index of a shape of
 * the level. */
int w_cast(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    shape_box *mover = checkshapebox(L, 2);
    double dx = luaL_checknumber(L, 3), dy = luaL_checknumber(L, 4);
    callback_ctx cc;
    c2d_world_filter filter;
    const c2d_world_filter *f;
    c2d_cast c;
    c2d_status st;
    int n, levels;
    checkmover(L, 2);
    lua_settop(L, 5);
    begin_call(L, 1, &cc);
    f = checkfilter(L, 5, &cc, &filter);
    check_live(L, wb, mover);
    enter(wb, mover, &cc);
    st = c2d_world_cast(wb->world, mover->shape, vec(dx, dy), f, &c);
    leave(wb, mover, &cc);
    raise_callback_error(L, &cc);
    if (st != C2D_OK)
        return status_error(L, st, 2, "-cc");
    push_level_values(L, 1);
    levels = lua_gettop(L);
    n = push_cast_head(L, &c);
    if (c.state == C2D_CAST_NONE)
        return n;
    push_met(L, &cc, levels, c.id, c.index, c.user);
    return n + 2 + push_cast_tail(L, &c);
}

/* world:pushOut(shape [, filter]) -> dx, dy: as set:pushOut through the world's shapes and its level. */
int w_pushout(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    shape_box *mover = checkshapebox(L, 2);
    callback_ctx cc;
    c2d_world_filter filter;
    const c2d_world_filter *f;
    c2d_vec2 d;
    c2d_status st;
    checkmover(L, 2);
    lua_settop(L, 3);
    begin_call(L, 1, &cc);
    f = checkfilter(L, 3, &cc, &filter);
    check_live(L, wb, mover);
    enter(wb, mover, &cc);
    st = c2d_world_push_out(wb->world, mover->shape, f, &d);
    leave(wb, mover, &cc);
    raise_callback_error(L, &cc);
    if (st != C2D_OK)
        return status_error(L, st, 2, "");
    lua_pushnumber(L, d.x);
    lua_pushnumber(L, d.y);
    return 2;
}

/* world:moveCharacter(shape, dx, dy [, opts [, filter [, state [, contacts]]]]) -> x, y, grounded, nx, ny,
 * ground, ceiling: set:moveCharacter through the world's shapes (the shape itself is skipped if it is
 * in the world), the ground named by its shape (nil when none). state as set:moveCharacter's, with
 * state.shape the ground's shape (it must be in this world) instead of state.index. */
int w_movecharacter(lua_State *L)
{
    world_box *wb = checkworld(L, 1);
    shape_box *mover = checkshapebox(L, 2);
    double dx = luaL_checknumber(L, 3), dy = luaL_checknumber(L, 4);
    int contacts = opt_table(L, 8), state, place, levels;
    callback_ctx cc;
    c2d_world_filter filter;
    const c2d_world_filter *f;
    c2d_character_options o;
    c2d_world_character_state cs;
    c2d_character_result r;
    record_sink sink;
    c2d_vec2 p;
    c2d_status st;
    checkmover(L, 2);
    lua_settop(L, 8);
    if (lua_isnil(L, 7)) {
        state = own_state(L, 2);
    } else {
        luaL_checktype(L, 7, LUA_TTABLE);
        state = 7;
    }
    begin_call(L, 1, &cc);
    check_character_opts(L, 5, &o, &place);
    f = checkfilter(L, 6, &cc, &filter);
    memset(&cs, 0, sizeof cs);
    cs.ground_index = -1;
    cs.grounded = boolean_field(L, state, "grounded", "state.grounded", 0);
    if (cs.grounded) {
        shape_box *g;
        lua_getfield(L, state, "shape");
        g = toshapebox(L, -1);
        if (g == NULL && !lua_isnil(L, -1))
            field_typeerror(L, state, "state.shape", SHAPE_NAME);
        if (g == NULL && wb->level != NULL) {
            /* No shape: the ground may be a shape of the world's level, named by its index. */
            double i = number_field(L, state, "index", "state.index", 0.0, 0.0, (double)wb->level->n);
            if (i >= 1 && i == floor(i))
                cs.ground_index = (int)i - 1;
            else
                cs.grounded = 0;
        } else if (g == NULL || g->shape == NULL || g->world != wb) {
            cs.grounded = 0; /* a ground since destroyed or taken out of this world is no ground */
        } else {
            cs.ground_id = g->id;
        }
        lua_pop(L, 1);
        cs.ground_normal.x = number_field(L, state, "nx", "state.nx", 0.0, -C2D_MAX_COORDINATE, C2D_MAX_COORDINATE);
        cs.ground_normal.y = number_field(L, state, "ny", "state.ny", 0.0, -C2D_MAX_COORDINATE, C2D_MAX_COORDINATE);
    }
    begin_records(L, &sink);
    check_live(L, wb, mover);
    enter(wb, mover, &cc);
    st = c2d_world_move_character(wb->world, mover->shape, vec(dx, dy), f, NULL, NULL, &o, &cs, &r,
                                  contacts ? keep_records : NULL, contacts ? &sink : NULL);
    leave(wb, mover, &cc);
    raise_callback_error(L, &cc);
    if (st != C2D_OK)
        return status_error(L, st, 2, "-cc");
    CHECK(L, c2d_shape_get_position(mover->shape, &p), 2, "");
    p = vec(p.x + r.displacement.x, p.y + r.displacement.y);
    if (place)
        place_mover(L, 2, p, 0, 0);
    push_level_values(L, 1);
    levels = lua_gettop(L);
    lua_pushvalue(L, state);
    set_flag(L, "grounded", cs.grounded);
    /* the ground: its shape (an entry) or its index (a shape of the level), and its value */
    if (cs.grounded) {
        push_met(L, &cc, levels, cs.ground_id, cs.ground_index, cs.ground_user);
        lua_setfield(L, -3, "value");
        lua_setfield(L, -2, cs.ground_id != 0 ? "shape" : "index");
        lua_pushnil(L);
        lua_setfield(L, -2, cs.ground_id != 0 ? "index" : "shape");
    } else {
        lua_pushnil(L);
        lua_setfield(L, -2, "shape");
        lua_pushnil(L);
        lua_setfield(L, -2, "index");
        lua_pushnil(L);
        lua_setfield(L, -2, "value");
    }
    set_number(L, "nx", cs.ground_normal.x);
    set_number(L, "ny", cs.ground_normal.y);
    set_number(L, "px", cs.ground_point.x);
    set_number(L, "py", cs.ground_point.y);
    set_number(L, "vx", cs.ground_velocity.x);
    set_number(L, "vy", cs.ground_velocity.y);
    set_flag(L, "ceiling", (r.flags & C2D_CHARACTER_CEILING) != 0);
    set_flag(L, "wall", (r.flags & C2D_CHARACTER_WALL) != 0);
    set_flag(L, "steep", (r.flags & C2D_CHARACTER_STEEP) != 0);
    set_flag(L, "stepped", (r.flags & C2D_CHARACTER_STEPPED) != 0);
    set_flag(L, "snapped", (r.flags & C2D_CHARACTER_SNAPPED) != 0);
    set_flag(L, "landed", (r.flags & C2D_CHARACTER_LANDED) != 0);
    lua_pushinteger(L, r.count);
    lua_setfield(L, -2, "count");
    set_number(L, "snap", sqrt(r.snap.x * r.snap.x + r.snap.y * r.snap.y));
    lua_pop(L, 1);
    fill_world_contacts(L, &cc, contacts, sink.items, sink.n);
    lua_pushnumber(L, p.x);
    lua_pushnumber(L, p.y);
    lua_pushboolean(L, cs.grounded);
    lua_pushnumber(L, cs.ground_normal.x);
    lua_pushnumber(L, cs.ground_normal.y);
    if (cs.grounded && cs.ground_id != 0)
        compat_getkey(L, cc.shapes, cs.ground_user);
    else if (cs.grounded)
        lua_pushinteger(L, (lua_Integer)cs.ground_index + 1); /* a shape of the level */
    else
        lua_pushnil(L);
    lua_pushboolean(L, (r.flags & C2D_CHARACTER_CEILING) != 0);
    return 7;
}
