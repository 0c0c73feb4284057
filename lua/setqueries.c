/*
 * setqueries.c - a static set's queries from Lua, the world's verbs with the world's arguments and
 * results: set:queryRect, set:queryPoint, set:queryShape, set:raycast and set:raycastAll. Where a world
 * answers with shapes, a set answers with 1-based indices; the optional filter is a function(index,
 * value) (a set has no filter bits), asked at most once per shape found.
 *
 * The core's answers go into a buffer the set keeps (room for every shape, so one call always fits),
 * and are copied into the result table before any filter runs: a filter may query the set again or
 * destroy it. While the table is filled (an allocation may run a finalizer that queries or destroys
 * the set) the buffer is marked as being read: a nested query then gets a temporary buffer, and a
 * destroy leaves the freeing to the reader.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "binding.h"

/* Room for the set's answers: n results of size sz (every shape once at most). The set's own buffer,
 * unless a query is reading it (then a temporary one the collector frees). */
static void *set_scratch(lua_State *L, set_box *b, size_t sz)
{
    size_t need = (size_t)(b->n > 0 ? b->n : 1) * sz;
    if (b->reading > 0) {
        void *p = lua_newuserdata(L, need);
        if (b->set == NULL) /* the allocation ran a finalizer that destroyed the set */
            luaL_error(L, "attempt to use a destroyed static set");
        return p;
    }
    if (need > b->bufsize) {
        void *p = realloc(b->buf, need);
        if (p == NULL)
            luaL_error(L, "%s", c2d_status_string(C2D_ERR_NO_MEMORY));
        b->buf = p;
        b->bufsize = need;
    }
    return b->buf;
}

/* Ends reading the set's buffer: frees it if a finalizer destroyed the set meanwhile. */
static void done_reading(set_box *b)
{
    b->reading--;
    if (b->set == NULL && b->reading == 0) {
        free(b->buf);
        b->buf = NULL;
        b->bufsize = 0;
    }
}

/* The filter at arg: nil or none, or a function(index, value). Returns whether there is one. */
static int checksetfilter(lua_State *L, int arg)
{
    if (lua_isnoneornil(L, arg))
        return 0;
    luaL_checktype(L, arg, LUA_TFUNCTION);
    return 1;
}

/* Calls the filter at stack index fn for the 1-based index i with the shape's value (from the values
 * table at stack index values, or nil when 0) under lua_pcall: returns whether it keeps the shape, or
 * -1 when it raised, its error left on the stack for the caller to raise once it is done with the
 * set's buffer. */
static int keeps(lua_State *L, int fn, int values, lua_Integer i)
{
    int ok;
    lua_pushvalue(L, fn);
    lua_pushinteger(L, i);
    if (values)
        lua_rawgeti(L, values, i);
    else
        lua_pushnil(L);
    if (lua_pcall(L, 2, 1, 0) != 0)
        return -1;
    ok = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return ok;
}

/* keeps, raising its error at once: for filters that run when the buffer is no longer read. */
static int keeps_or_raise(lua_State *L, int fn, int values, lua_Integer i)
{
    int ok = keeps(L, fn, values, i);
    if (ok < 0)
        lua_error(L);
    return ok;
}

/* The set's values table on the stack (nil when no shape has a value); returns its index or 0. */
static int push_values(lua_State *L)
{
    push_set_values(L, 1);
    return lua_istable(L, -1) ? lua_gettop(L) : 0;
}

enum { Q_RECT, Q_POINT, Q_SHAPE };

/* set:queryRect(x, y, w, h [, filter [, out]]), set:queryPoint(x, y [, filter [, out]]),
 * set:queryShape(shape [, filter [, out]]) -> items, n: the 1-based indices of the enabled shapes
 * found, ascending, in out (cleared past n) or a new table. */
static int set_query(lua_State *L, int kind)
{
    set_box *b = checkset(L, 1);
    c2d_shape *probe = NULL;
    c2d_aabb box;
    c2d_vec2 p = {0, 0};
    int farg, out, has_filter, count = 0, k, m, old = 0, values;
    const char *roles;
    c2d_set_hit *hits;
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
        probe = checkshape(L, 2);
        farg = 3;
        roles = "-";
    }
    has_filter = checksetfilter(L, farg);
    out = opt_table(L, farg + 1);
    lua_settop(L, farg + 1);
    hits = (c2d_set_hit *)set_scratch(L, b, sizeof *hits);
    b = checkset(L, 1); /* a temporary buffer's allocation may have run a finalizer */
    if (probe != NULL)
        probe = checkshape(L, 2);
    if (kind == Q_RECT)
        st = c2d_static_set_query_aabb(b->set, box, hits, b->n, &count);
    else if (kind == Q_POINT)
        st = c2d_static_set_query_point(b->set, p, hits, b->n, &count);
    else
        st = c2d_static_set_query_shape(b->set, probe, hits, b->n, &count);
    if (st != C2D_OK)
        return status_error(L, st, 2, roles);
    b->reading++;
    if (out == 0) {
        lua_createtable(L, count, 0);
        out = lua_gettop(L);
    } else {
        old = (int)lua_rawlen(L, out);
    }
    for (k = 0; k < count; k++) {
        lua_pushinteger(L, (lua_Integer)hits[k].index + 1);
        lua_rawseti(L, out, k + 1);
    }
    done_reading(b);
    if (has_filter) {
        /* The answer is in the table now: the filter may do anything, even query or destroy the set. */
        values = push_values(L);
        for (k = 1, m = 0; k <= count; k++) {
            lua_Integer i;
            lua_rawgeti(L, out, k);
            i = lua_tointeger(L, -1);
            lua_pop(L, 1);
            if (keeps_or_raise(L, farg, values, i)) {
                lua_pushinteger(L, i);
                lua_rawseti(L, out, ++m);
            }
        }
        for (k = count; k > m; k--) {
            lua_pushnil(L);
            lua_rawseti(L, out, k);
        }
        count = m;
    }
    for (k = old; k > count; k--) {
        lua_pushnil(L);
        lua_rawseti(L, out, k);
    }
    lua_pushvalue(L, out);
    lua_pushinteger(L, count);
    return 2;
}

int s_queryrect(lua_State *L)
{
    return set_query(L, Q_RECT);
}

int s_querypoint(lua_State *L)
{
    return set_query(L, Q_POINT);
}

int s_queryshape(lua_State *L)
{
    return set_query(L, Q_SHAPE);
}

/* Every hit of the ray of args 2 .. 6, into the set's buffer; *count receives their number. */
static c2d_set_ray_hit *cast_all(lua_State *L, set_box **b, c2d_vec2 o, c2d_vec2 d, double maxt, int *count)
{
    c2d_set_ray_hit *hits = (c2d_set_ray_hit *)set_scratch(L, *b, sizeof *hits);
    c2d_status st;
    *b = checkset(L, 1);
    st = c2d_static_set_raycast_all((*b)->set, o, d, maxt, hits, (*b)->n, count);
    if (st != C2D_OK)
        status_error(L, st, 2, "ccddt");
    return hits;
}

/* set:raycast(x, y, dx, dy [, maxT [, filter]]) -> nil, or index, t, px, py, nx, ny: the first enabled
 * shape the ray (x, y) + t * (dx, dy), 0 <= t <= maxT (default: unbounded), meets; of shapes hit at
 * the same t, the lowest index. No garbage. */
int s_raycast(lua_State *L)
{
    set_box *b = checkset(L, 1);
    double ox = luaL_checknumber(L, 2), oy = luaL_checknumber(L, 3);
    double dx = luaL_checknumber(L, 4), dy = luaL_checknumber(L, 5);
    double maxt = luaL_optnumber(L, 6, HUGE_VAL);
    int has_filter = checksetfilter(L, 7), count = 0, k, values;
    c2d_set_ray_hit hit;
    lua_settop(L, 7);
    if (!has_filter) {
        CHECK(L, c2d_static_set_raycast(b->set, vec(ox, oy), vec(dx, dy), maxt, &hit), 2, "ccddt");
    } else {
        /* Every hit in order, asked until one is kept. The buffer is being read meanwhile, so a
         * query from the filter gets its own and a destroy leaves it to done_reading (see the top). */
        c2d_set_ray_hit *hits = cast_all(L, &b, vec(ox, oy), vec(dx, dy), maxt, &count);
        values = push_values(L);
        memset(&hit, 0, sizeof hit);
        b->reading++;
        for (k = 0; k < count; k++) {
            int keep = keeps(L, 7, values, (lua_Integer)hits[k].index + 1);
            if (keep < 0) {
                done_reading(b);
                return lua_error(L);
            }
            if (keep) {
                hit = hits[k];
                break;
            }
        }
        done_reading(b);
    }
    if (!hit.ray.hit) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushinteger(L, (lua_Integer)hit.index + 1);
    lua_pushnumber(L, hit.ray.t);
    lua_pushnumber(L, hit.ray.point.x);
    lua_pushnumber(L, hit.ray.point.y);
    lua_pushnumber(L, hit.ray.normal.x);
    lua_pushnumber(L, hit.ray.normal.y);
    return 6;
}

/* set:raycastAll(x, y, dx, dy [, maxT [, filter [, out]]]) -> hits, n: every enabled shape the ray
 * meets, in order of t (ties by index), as out[k] = {index =, t =, x =, y =, nx =, ny =} (records
 * reused; entries past n left as they were). */
int s_raycastall(lua_State *L)
{
    set_box *b = checkset(L, 1);
    double ox = luaL_checknumber(L, 2), oy = luaL_checknumber(L, 3);
    double dx = luaL_checknumber(L, 4), dy = luaL_checknumber(L, 5);
    double maxt = luaL_optnumber(L, 6, HUGE_VAL);
    int has_filter = checksetfilter(L, 7), out = opt_table(L, 8), count = 0, k, m, values;
    c2d_set_ray_hit *hits;
    lua_settop(L, 8);
    hits = cast_all(L, &b, vec(ox, oy), vec(dx, dy), maxt, &count);
    b->reading++;
    if (out == 0) {
        lua_createtable(L, count, 0);
        out = lua_gettop(L);
    }
    for (k = 0; k < count; k++) {
        record_at(L, out, k + 1, 6);
        lua_pushinteger(L, (lua_Integer)hits[k].index + 1);
        lua_setfield(L, -2, "index");
        set_number(L, "t", hits[k].ray.t);
        set_number(L, "x", hits[k].ray.point.x);
        set_number(L, "y", hits[k].ray.point.y);
        set_number(L, "nx", hits[k].ray.normal.x);
        set_number(L, "ny", hits[k].ray.normal.y);
        lua_pop(L, 1);
    }
    done_reading(b);
    if (has_filter) {
        /* Records kept move down, dropped ones go past the end, so every record stays reusable. */
        values = push_values(L);
        for (k = 1, m = 0; k <= count; k++) {
            lua_Integer i;
            lua_rawgeti(L, out, k);
            lua_getfield(L, -1, "index");
            i = lua_tointeger(L, -1);
            lua_pop(L, 1);
            if (keeps_or_raise(L, 7, values, i)) {
                m++;
                if (m != k) {
                    lua_rawgeti(L, out, m); /* a dropped record: swap it with this one */
                    lua_rawseti(L, out, k);
                    lua_rawseti(L, out, m);
                } else {
                    lua_pop(L, 1);
                }
            } else {
                lua_pop(L, 1);
            }
        }
        count = m;
    }
    lua_pushvalue(L, out);
    lua_pushinteger(L, count);
    return 2;
}
